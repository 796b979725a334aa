// Every enrichment call leaves a row in `enrichment_calls` (the organization's, with what it cost), written as the
// call returns and outside any run transaction: a call the provider billed stays on record even if the round that
// asked for it rolls back or dies before it commits.
import { enrichmentCalls } from '../../../schema';
import type { EnrichmentContext } from './port';

/** `found`: data came back; `empty`: the provider knows nothing (404 or no rows); `error` / `rate_limited`: no answer. */
export type CallOutcome = 'found' | 'empty' | 'error' | 'rate_limited';

export type EnrichmentOperation = 'company' | 'vacancies' | 'job_openings' | 'financing_events' | 'technology_detections' | 'news_events' | 'signals';

export async function logEnrichmentCall(
  ctx: EnrichmentContext,
  call: { provider: string; operation: EnrichmentOperation; domain: string; outcome: CallOutcome; costMicros: number; simulated: boolean },
): Promise<void> {
  await ctx.db.insert(enrichmentCalls).values({
    orgId: ctx.orgId,
    provider: call.provider,
    operation: call.operation,
    domain: call.domain,
    outcome: call.outcome,
    costMicros: call.costMicros,
    simulated: call.simulated,
    at: ctx.now,
  });
}
