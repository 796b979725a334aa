import { findClient } from '../agency/clients/view';
import type { PreviewAnswer } from '../agency/confirm';
import type { AgencyCall } from '../agency/operation';
import { balanceOf } from '../credits/ledger';
import { randomToken, sha256Hex } from '../crypto/secrets';
import type { Db } from '../db/types';
import type { ErrorCode } from '../errors';
import { runView } from './run_state';
import type { RunPreview } from './schema';
import { storePreviewedRun } from './run_state';
import { finderDomain, MAX_RUN_LEADS, ROUND_SIZE, selectLeads, type Selection } from './selection';

export type RunInput = { client_id: string; lead_ids?: string[]; confirm_token?: string };

const PREVIEW_LEADS = 50;

const nameOf = (l: Selection['eligible'][number]) => (l.fullName?.trim() || [l.firstName, l.lastName].filter(Boolean).join(' ')).trim();

/** The run's leads as the preview read them: what activation compares against (a change is preview_stale). */
export async function runLeads(db: Db, call: AgencyCall, input: RunInput, exceptRunId?: string) {
  const s = await selectLeads(db, { orgId: call.auth.orgId, clientId: input.client_id, leadIds: input.lead_ids, now: call.now, exceptRunId });
  return { selection: s, leadIds: s.eligible.slice(0, MAX_RUN_LEADS).map((l) => l.id) };
}

/** The first call of run_find_emails: the run's leads and its credit ceiling, and the token every round reuses. */
export async function previewRun(call: AgencyCall, input: RunInput): Promise<PreviewAnswer<RunPreview>> {
  const { db, studio } = call.services;
  await findClient(db, call.auth.orgId, input.client_id);
  const { selection: s, leadIds } = await runLeads(db, call, input);
  const balance = await balanceOf(db, call.auth.orgId);
  const total = leadIds.length;
  const firstRound = Math.min(ROUND_SIZE, total);
  const blockedBy: ErrorCode | null = total === 0 ? 'conflict' : balance < firstRound ? 'insufficient_credits' : null;
  const preview = (run: RunPreview['run'] | null): RunPreview => ({
    run,
    providers: studio.finder.providers.map((p) => p.name),
    simulated: studio.finder.kind === 'sim',
    leads: s.eligible.slice(0, PREVIEW_LEADS).map((l) => ({ lead_id: l.id, name: nameOf(l), domain: finderDomain(l)! })),
    more_leads: Math.max(0, total - PREVIEW_LEADS),
    skipped: { missing_inputs: s.counts.missing_inputs, not_waiting: s.counts.not_waiting, in_other_run: s.counts.in_other_run },
    skipped_leads: input.lead_ids ? s.skipped : [],
    beyond_run: s.beyondRun,
    max_credits: total,
    round_size: ROUND_SIZE,
    rounds: Math.ceil(total / ROUND_SIZE),
    balance,
  });
  if (blockedBy) return { preview: preview(null), confirm_token: null, expires_at: null, credits: total, blocked_by: blockedBy };
  const token = `ct_${randomToken(24)}`;
  const run = await storePreviewedRun(call, { clientId: input.client_id, tokenHash: await sha256Hex(token), input, leadIds });
  return { preview: preview(runView(run)), confirm_token: token, expires_at: run.expiresAt.toISOString(), credits: total };
}
