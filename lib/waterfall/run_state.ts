// A waterfall run and its confirm token. The token is issued like every two-step token (a confirm_tokens row bound
// to the key, the tool, the arguments and the state the preview read) but, unlike the others, it is not used up by
// the first confirm: the run (finder_runs, keyed by the same token hash) keeps it open for every round until the
// run is done, failed or 24 hours after the preview. An unconfirmed preview lapses after 15 minutes like any other.
import { and, eq } from 'drizzle-orm';
import { confirmTokens, finderRuns } from '../../schema';
import { canonicalJson } from '../agency/canonical';
import { CONFIRM_TTL_MS } from '../agency/confirm';
import type { AgencyCall } from '../agency/operation';
import { sha256Hex } from '../crypto/secrets';
import type { Db } from '../db/types';
import { ApiError } from '../errors';
import type { RunView } from './schema';

export const TOOL = 'run_find_emails';
export const RUN_TTL_MS = 24 * 60 * 60 * 1000;

export type RunRow = typeof finderRuns.$inferSelect;

export const runView = (r: RunRow): RunView => ({
  id: r.id,
  status: r.status,
  processed: r.processed,
  total: r.leadIds.length,
  found: r.found,
  credits: r.credits,
  expires_at: r.expiresAt.toISOString(),
});

export const isClosed = (r: Pick<RunRow, 'status'>) => r.status === 'done' || r.status === 'stopped' || r.status === 'failed';

/** The arguments a token is bound to: everything but the token itself, in canonical form. */
export const argsHashOf = (input: Record<string, unknown>) => {
  const { confirm_token: _, ...rest } = input;
  return sha256Hex(canonicalJson(rest));
};
export const stateHashOf = (leadIds: readonly string[]) => sha256Hex(canonicalJson({ lead_ids: leadIds }));

/** Stores the token's binding and its run, previewed; the token lapses in 15 minutes unless a round opens the run. */
export async function storePreviewedRun(call: AgencyCall, q: { clientId: string; tokenHash: string; input: Record<string, unknown>; leadIds: string[] }): Promise<RunRow> {
  const expiresAt = new Date(call.now.getTime() + CONFIRM_TTL_MS);
  const argsHash = await argsHashOf(q.input);
  const stateHash = await stateHashOf(q.leadIds);
  return call.services.db.transaction(async (tx) => {
    await tx.insert(confirmTokens).values({
      tokenHash: q.tokenHash,
      orgId: call.auth.orgId,
      keyId: call.auth.keyId,
      tool: TOOL,
      argsHash,
      stateHash,
      credits: q.leadIds.length,
      expiresAt,
      createdAt: call.now,
    });
    const [run] = await tx
      .insert(finderRuns)
      .values({
        orgId: call.auth.orgId,
        clientId: q.clientId,
        keyId: call.auth.keyId,
        tokenHash: q.tokenHash,
        leadIds: q.leadIds,
        status: 'previewed',
        expiresAt,
        createdAt: call.now,
        updatedAt: call.now,
      })
      .returning();
    return run;
  });
}

/**
 * The run a confirm_token opens, checked like every token (agency-operator.md §3): unknown, another key, another
 * tool or other arguments → confirm_token_invalid; a closed run → confirm_token_used (with the run); past its
 * lifetime → confirm_token_expired. Reads only: the round re-checks under the run's lock.
 */
export async function runOfToken(db: Db, call: AgencyCall, input: Record<string, unknown> & { client_id: string }, token: string): Promise<{ run: RunRow; stateHash: string }> {
  const tokenHash = await sha256Hex(token);
  const [binding] = await db.select().from(confirmTokens).where(eq(confirmTokens.tokenHash, tokenHash));
  if (!binding || binding.keyId !== call.auth.keyId || binding.orgId !== call.auth.orgId) {
    throw new ApiError('confirm_token_invalid', 'confirm_token: unknown, or issued to another key');
  }
  if (binding.tool !== TOOL) throw new ApiError('confirm_token_invalid', `confirm_token: issued for ${binding.tool}, not ${TOOL}`);
  if (binding.argsHash !== (await argsHashOf(input))) {
    throw new ApiError('confirm_token_invalid', 'confirm_token: issued for other arguments; call with exactly the arguments of the preview');
  }
  const [run] = await db.select().from(finderRuns).where(and(eq(finderRuns.tokenHash, tokenHash), eq(finderRuns.orgId, call.auth.orgId)));
  if (!run || run.clientId !== input.client_id) throw new ApiError('confirm_token_invalid', 'confirm_token: not a waterfall run of this client');
  checkOpen(run, call.now);
  return { run, stateHash: binding.stateHash };
}

/** Refuses a round of a run that is closed or past its lifetime. */
export function checkOpen(run: RunRow, now: Date) {
  if (isClosed(run)) {
    throw new ApiError('confirm_token_used', `confirm_token: the run is ${run.status}; ask for a new preview to find more emails`, { body: { run: runView(run) } });
  }
  if (run.expiresAt.getTime() <= now.getTime()) {
    const why = run.status === 'previewed' ? 'an unconfirmed preview lapses after 15 minutes' : 'a run stays open for at most 24 hours';
    throw new ApiError('confirm_token_expired', `confirm_token: expired (${why}); ask for a new preview`, { body: { run: runView(run) } });
  }
}
