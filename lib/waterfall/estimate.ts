import { findClient } from '../agency/clients/view';
import type { AgencyCall } from '../agency/operation';
import { balanceOf } from '../credits/ledger';
import type { Estimate } from './schema';
import { ROUND_SIZE, selectLeads } from './selection';

/** estimate_find_emails: what a run over these leads could cost, read only. */
export async function estimateFindEmails(call: AgencyCall, input: { client_id: string; lead_ids?: string[] }): Promise<Estimate> {
  const { db, studio } = call.services;
  const orgId = call.auth.orgId;
  await findClient(db, orgId, input.client_id);
  const s = await selectLeads(db, { orgId, clientId: input.client_id, leadIds: input.lead_ids, now: call.now });
  const balance = await balanceOf(db, orgId);
  const max = s.counts.eligible;
  return {
    estimate: {
      leads: s.counts.considered,
      eligible: max,
      skipped: { missing_inputs: s.counts.missing_inputs, not_waiting: s.counts.not_waiting, in_other_run: s.counts.in_other_run },
      max_credits: max,
      rounds: Math.ceil(max / ROUND_SIZE),
      balance,
      enough_credits: balance >= max,
      providers: studio.finder.providers.map((p) => p.name),
      simulated: studio.finder.kind === 'sim',
    },
  };
}
