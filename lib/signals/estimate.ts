import { findClient } from '../agency/clients/view';
import type { AgencyCall } from '../agency/operation';
import { balanceOf } from '../credits/ledger';
import type { SignalKind } from '../ports/enrichment/port';
import { allKinds } from './kinds';
import type { SignalsEstimate } from './schema';
import { selectSignalLeads } from './selection';

/** estimate_signals: the most a signals run over these leads could charge, read only. */
export async function estimateSignals(call: AgencyCall, input: { client_id: string; lead_ids?: string[]; kinds?: SignalKind[] }): Promise<SignalsEstimate> {
  const { db, studio } = call.services;
  const orgId = call.auth.orgId;
  await findClient(db, orgId, input.client_id);
  const kinds = input.kinds ?? allKinds();
  const s = await selectSignalLeads(db, { orgId, clientId: input.client_id, leadIds: input.lead_ids, kinds, now: call.now });
  const balance = await balanceOf(db, orgId);
  const max = s.counts.eligible - s.paidToday.size;
  return {
    estimate: {
      leads: s.counts.considered,
      with_domain: s.counts.eligible + s.counts.in_other_run,
      skipped: { no_domain: s.counts.no_domain, in_other_run: s.counts.in_other_run },
      already_paid_today: s.paidToday.size,
      max_credits: max,
      kinds,
      balance,
      enough_credits: balance >= max,
      provider: studio.enrichment.kind,
      simulated: studio.enrichment.kind === 'sim',
    },
  };
}
