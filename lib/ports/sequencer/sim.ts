// The simulated sequencer (agency-operator.md §6): campaigns and pushed leads are real rows (sim_sequencer_campaigns,
// sim_sequencer_leads); what happens to each mail is decided day by day in sim_day.ts by SHA-256 of SIM_SEED and the
// send, never by chance. A lead added here waits (next_day null) for the next simulated day that runs.
import { and, eq, sql } from 'drizzle-orm';
import { simSequencerCampaigns, simSequencerLeads } from '../../../schema';
import type { PortDeps } from '../registrar/port';
import type { ActivateResult, AddLeadsResult, EnsureCampaignInput, EnsureCampaignResult, Sequencer, SequencerLead } from './port';

export const MAX_LEADS_PER_CALL = 100;
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const refuse = (detail: string) => ({ ok: false as const, reason: 'error' as const, detail, simulated: true as const });

/** Mailboxes as the campaign keeps them: addresses lower-cased, one entry per address (the last cap given wins). */
export function normalizeMailboxes(mailboxes: EnsureCampaignInput['mailboxes']): { address: string; daily_cap: number }[] {
  const byAddress = new Map<string, number>();
  for (const m of mailboxes) byAddress.set(m.address.trim().toLowerCase(), Math.max(0, Math.floor(m.daily_cap)));
  return [...byAddress].map(([address, daily_cap]) => ({ address, daily_cap }));
}

/** Problems of a lead list that no sequencer would accept; null when the list is fine. */
export function leadsProblem(leads: SequencerLead[]): string | null {
  if (leads.length > MAX_LEADS_PER_CALL) return `at most ${MAX_LEADS_PER_CALL} leads a call, got ${leads.length}`;
  const bad = leads.find((l) => !EMAIL_RE.test(l.email.trim()));
  if (bad) return `lead email "${bad.email}" is not an email address`;
  const noMail = leads.find((l) => !l.mails.length);
  if (noMail) return `lead ${noMail.email} has no mails to send`;
  return null;
}

export function createSimSequencer(): Sequencer {
  return {
    kind: 'sim',

    async ensureCampaign(deps: PortDeps, input: EnsureCampaignInput): Promise<EnsureCampaignResult> {
      if (!input.reference.trim()) return refuse('a campaign reference is required');
      const mailboxes = normalizeMailboxes(input.mailboxes);
      // One statement decides a race between two first calls: the unique (org, reference) index keeps one row, and
      // xmax = 0 tells the call that inserted it from the ones that updated its mailboxes.
      const [row] = await deps.db
        .insert(simSequencerCampaigns)
        .values({ orgId: input.orgId, reference: input.reference, name: input.name, mailboxes })
        .onConflictDoUpdate({ target: [simSequencerCampaigns.orgId, simSequencerCampaigns.reference], set: { mailboxes } })
        .returning({ id: simSequencerCampaigns.id, inserted: sql<boolean>`(xmax = 0)` });
      return { ok: true, provider_campaign_id: row.id, repeated: !row.inserted, simulated: true };
    },

    async activateCampaign(deps: PortDeps, input: { orgId: string; provider_campaign_id: string }): Promise<ActivateResult> {
      if (!/^[0-9a-f-]{36}$/i.test(input.provider_campaign_id)) return refuse(`no simulated campaign ${input.provider_campaign_id}`);
      const [row] = await deps.db
        .update(simSequencerCampaigns)
        .set({ status: 'active' })
        .where(and(eq(simSequencerCampaigns.id, input.provider_campaign_id), eq(simSequencerCampaigns.orgId, input.orgId)))
        .returning({ id: simSequencerCampaigns.id });
      if (!row) return refuse(`no simulated campaign ${input.provider_campaign_id} in this organization`);
      return { ok: true, simulated: true };
    },

    async addLeads(deps: PortDeps, input: { orgId: string; provider_campaign_id: string; leads: SequencerLead[] }): Promise<AddLeadsResult> {
      const problem = leadsProblem(input.leads);
      if (problem) return refuse(problem);
      if (!/^[0-9a-f-]{36}$/i.test(input.provider_campaign_id)) return refuse(`no simulated campaign ${input.provider_campaign_id}`);
      const [campaign] = await deps.db
        .select({ id: simSequencerCampaigns.id })
        .from(simSequencerCampaigns)
        .where(and(eq(simSequencerCampaigns.id, input.provider_campaign_id), eq(simSequencerCampaigns.orgId, input.orgId)));
      if (!campaign) return refuse(`no simulated campaign ${input.provider_campaign_id} in this organization`);
      if (!input.leads.length) return { ok: true, added: 0, already: 0, simulated: true };

      const rows = input.leads.map((l) => ({
        orgId: input.orgId,
        campaignId: campaign.id,
        email: l.email.trim().toLowerCase(),
        mails: [...l.mails].sort((a, b) => a.step - b.step),
        fields: { first_name: l.first_name, last_name: l.last_name, company: l.company },
        nextStep: 1,
        nextDay: null,
      }));
      // The unique (campaign, email) index decides, also between concurrent pushes: a lead is in a campaign once.
      const inserted = await deps.db.insert(simSequencerLeads).values(rows).onConflictDoNothing().returning({ id: simSequencerLeads.id });
      return { ok: true, added: inserted.length, already: input.leads.length - inserted.length, simulated: true };
    },
  };
}
