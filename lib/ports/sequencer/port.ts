// The sequencer port: the sending tool that mails pushed leads from the attached mailboxes. Production: Instantly
// API v2 (campaigns, leads; replies come back through the existing Instantly reply webhook, /v1/inbound/{source_id});
// embedded: a deterministic simulation that sends within the mailboxes' caps day by day and whose replies enter the
// core ingestion (agency-operator.md §6).
import type { PortDeps } from '../registrar/port';

export type SequencerMail = { step: number; subject: string | null; body: string; delay_days: number };
export type SequencerLead = { email: string; first_name: string | null; last_name: string | null; company: string | null; mails: SequencerMail[] };

export type EnsureCampaignInput = {
  orgId: string;
  /** The idempotency reference (the Studio campaign id): the same reference again answers the same campaign. */
  reference: string;
  name: string;
  /** The sending mailboxes and what each may send a day. */
  mailboxes: { address: string; daily_cap: number }[];
};

export type SequencerFailure = { ok: false; reason: 'rate_limited' | 'error'; detail: string; retry_after_sec?: number; simulated?: true };

export type EnsureCampaignResult = { ok: true; provider_campaign_id: string; repeated: boolean; simulated?: true } | SequencerFailure;

/** Pushing a lead that is already in the campaign adds nothing (`already`): a repeated push never doubles a lead. */
export type AddLeadsResult = { ok: true; added: number; already: number; simulated?: true } | SequencerFailure;

/** Starting the campaign's sending once its leads are in (idempotent: an active campaign stays active). */
export type ActivateResult = { ok: true; simulated?: true } | SequencerFailure;

export interface Sequencer {
  readonly kind: 'sim' | 'instantly';
  ensureCampaign(deps: PortDeps, input: EnsureCampaignInput): Promise<EnsureCampaignResult>;
  /** At most 100 leads a call. */
  addLeads(deps: PortDeps, input: { orgId: string; provider_campaign_id: string; leads: SequencerLead[] }): Promise<AddLeadsResult>;
  activateCampaign(deps: PortDeps, input: { orgId: string; provider_campaign_id: string }): Promise<ActivateResult>;
}
