// Step two of a round, outside any transaction (provider calls can take seconds and must hold no lock): never-mail
// first (a blocked company domain is not searched at all), then the providers in order, never-mail again on each
// address found, then one verification of each address still usable.
import type { AgencyCall } from '../agency/operation';
import { findNeverMail } from '../pool/never_mail';
import type { PoolLeadRow } from '../pool/view';
import type { VerifyStatus } from '../ports/finder/port';
import { inBatches, searchProviders, type CallLog } from './find_lead';
import type { RoundOutcome } from './schema';
import { finderDomain, hasFinderInputs, waitsForEmail } from './selection';

/** Provider requests in flight at once within a round (Hunter allows 15 a second). */
const WIDTH = 5;

export type LeadResult = {
  leadId: string;
  lead: PoolLeadRow | null;
  domain: string | null;
  outcome: RoundOutcome;
  email: string | null;
  emailStatus: VerifyStatus | null;
  provider: string | null;
  retryAfterSec: number | null;
  calls: CallLog[];
};

export async function searchRound(call: AgencyCall, clientId: string, leadIds: readonly string[], leads: Map<string, PoolLeadRow>): Promise<LeadResult[]> {
  const { db, studio } = call.services;
  const finder = studio.finder;
  const results: LeadResult[] = leadIds.map((leadId) => {
    const lead = leads.get(leadId) ?? null;
    const usable = lead !== null && waitsForEmail(lead) && hasFinderInputs(lead);
    return { leadId, lead, domain: lead ? finderDomain(lead) : null, outcome: usable ? 'not_found' : 'skipped', email: null, emailStatus: null, provider: null, retryAfterSec: null, calls: [] };
  });
  const open = () => results.filter((r) => r.outcome === 'not_found' || r.outcome === 'found');

  const before = open();
  const blockedCompany = await findNeverMail(db, { orgId: call.auth.orgId, clientId, leads: before.map((r) => ({ domain: r.domain, website: r.lead!.website })) });
  before.forEach((r, i) => blockedCompany.has(i) && (r.outcome = 'never_mail'));

  await inBatches(open(), WIDTH, async (r) => {
    const l = r.lead!;
    const s = await searchProviders(finder, { first_name: l.firstName, last_name: l.lastName, full_name: l.fullName, domain: r.domain! });
    r.calls.push(...s.calls.map((c) => ({ ...c })));
    r.outcome = s.outcome;
    r.email = s.email;
    r.provider = s.provider;
    r.retryAfterSec = s.retryAfterSec;
  });

  const found = results.filter((r) => r.outcome === 'found');
  const blockedEmail = await findNeverMail(db, { orgId: call.auth.orgId, clientId, leads: found.map((r) => ({ email: r.email })) });
  found.forEach((r, i) => blockedEmail.has(i) && (r.outcome = 'never_mail'));

  await inBatches(
    found.filter((r) => r.outcome === 'found'),
    WIDTH,
    async (r) => {
      let v;
      try {
        v = await finder.verifier.verify(r.email!);
      } catch (err) {
        v = { status: null, cost_micros: 0, outcome: 'error' as const, detail: err instanceof Error ? err.message : String(err) };
      }
      r.calls.push({ provider: finder.verifier.name, operation: 'verify', email: r.email, outcome: v.status ?? v.outcome, costMicros: v.cost_micros, simulated: v.simulated === true });
      if (v.outcome !== 'verified' || !v.status) {
        r.outcome = 'verify_failed';
        if (v.retry_after_sec !== undefined) r.retryAfterSec = v.retry_after_sec;
      } else {
        r.emailStatus = v.status;
        if (v.status === 'invalid') r.outcome = 'invalid';
      }
    },
  );
  return results;
}
