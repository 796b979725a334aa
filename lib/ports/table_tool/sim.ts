// The embedded table tool (agency-operator.md §6): a real implementation of the contract without a network. What a
// destination would have received is a `sim_table_posts` row (one per push and lead, so a retried post is recorded
// once; GET /admin/v1/orgs/{org_id}/sim/table_posts). Outcomes are a function of SHA-256 of the input and SIM_SEED:
// a host starting `fail-` always fails (HTTP 500), a host starting `slow-` answers 429 with Retry-After the first
// time each lead is tried, and one lead in 50 gets a transient 503 on its first try (so retries are exercised).
import { simTablePosts } from '../../../schema';
import { sha256Hex } from '../../crypto/secrets';
import type { TablePostResult, TableTool } from './port';

export function createSimTableTool(opts: { seed: string }): TableTool {
  return {
    kind: 'sim',
    async post(deps, input): Promise<TablePostResult> {
      let host: string;
      try {
        host = new URL(input.url).hostname.toLowerCase();
      } catch {
        return { ok: false, throttled: false, error: 'destination refused: not a valid URL', simulated: true };
      }
      const hash = await sha256Hex(`${opts.seed}|table|${input.url}|${input.pushId}|${input.leadId}`);
      const bucket = parseInt(hash.slice(0, 8), 16);
      if (host.startsWith('fail-')) return { ok: false, throttled: false, error: 'HTTP 500', simulated: true };
      if (host.startsWith('slow-') && input.attempt === 1 && !input.afterThrottle) {
        const retryAfterSec = 1 + (bucket % 3);
        return { ok: false, throttled: true, retryAfterSec, error: `HTTP 429 (Retry-After ${retryAfterSec} s)`, simulated: true };
      }
      if (bucket % 50 === 0 && input.attempt === 1) return { ok: false, throttled: false, error: 'HTTP 503', simulated: true };
      await deps.db
        .insert(simTablePosts)
        .values({ orgId: input.orgId, pushId: input.pushId, leadId: input.leadId, url: input.url, body: input.body })
        .onConflictDoNothing();
      return { ok: true, status: 200, simulated: true };
    },
  };
}
