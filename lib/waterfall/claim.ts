// Step one of a round: a short transaction under the run's row lock that hands the next ≤ 25 leads of the run to
// this round (the `processed` cursor moves past them), so concurrent rounds of one run get disjoint leads and no
// lead is searched twice. The first round also opens the run: under the client's row lock (one activation at a
// time per client) it re-reads the run's leads, refuses a changed selection as preview_stale, and extends the
// token to the run's lifetime. The round's maximum cost must be covered before any provider is asked.
import { and, eq, inArray } from 'drizzle-orm';
import { confirmTokens, finderRuns, poolLeads } from '../../schema';
import { findClient } from '../agency/clients/view';
import type { AgencyCall } from '../agency/operation';
import { creditsRemaining, secondsUntilUtcMidnight } from '../credits/balance';
import { balanceOf } from '../credits/ledger';
import type { Db } from '../db/types';
import { ApiError } from '../errors';
import type { PoolLeadRow } from '../pool/view';
import { runLeads, type RunInput } from './preview';
import { checkOpen, RUN_TTL_MS, stateHashOf, type RunRow } from './run_state';
import { ROUND_SIZE } from './selection';

export type Claim = { stale: true } | { stale: false; run: RunRow; leadIds: string[]; leads: Map<string, PoolLeadRow> };

async function ensureCredits(tx: Db, call: AgencyCall, needed: number) {
  const balance = await balanceOf(tx, call.auth.orgId);
  if (balance < needed) {
    throw new ApiError('insufficient_credits', `this round can find up to ${needed} emails (1 credit each) and the organization has ${balance} credits; nothing was searched`, {
      body: { credits_needed: needed, balance },
    });
  }
  // Checked here too: a charge refused at commit would throw away addresses the providers were already paid for.
  const key = { keyId: call.auth.keyId, dailyCreditLimit: call.auth.dailyCreditLimit };
  if ((await creditsRemaining(tx, key, call.now)) < needed) {
    throw new ApiError('daily_credit_limit_exceeded', `this round can cost up to ${needed} credits and the key's daily credit limit of ${key.dailyCreditLimit} does not allow it today`, {
      retryAfter: secondsUntilUtcMidnight(call.now),
    });
  }
}

export async function claimRound(call: AgencyCall, input: RunInput, runId: string, stateHash: string): Promise<Claim> {
  const orgId = call.auth.orgId;
  return call.services.db.transaction(async (tx): Promise<Claim> => {
    const [run] = await tx.select().from(finderRuns).where(and(eq(finderRuns.id, runId), eq(finderRuns.orgId, orgId))).for('update');
    checkOpen(run, call.now);
    let expiresAt = run.expiresAt;
    if (run.status === 'previewed') {
      await findClient(tx, orgId, run.clientId, true);
      const { leadIds } = await runLeads(tx, call, input, run.id);
      if ((await stateHashOf(leadIds)) !== stateHash) return { stale: true };
      expiresAt = new Date(run.createdAt.getTime() + RUN_TTL_MS);
      await tx.update(confirmTokens).set({ expiresAt }).where(and(eq(confirmTokens.tokenHash, run.tokenHash), eq(confirmTokens.orgId, orgId)));
    }
    const leadIds = run.leadIds.slice(run.processed, run.processed + ROUND_SIZE);
    if (leadIds.length === 0) return { stale: false, run, leadIds, leads: new Map() };
    await ensureCredits(tx, call, leadIds.length);
    const rows = await tx
      .select()
      .from(poolLeads)
      .where(and(eq(poolLeads.orgId, orgId), eq(poolLeads.clientId, run.clientId), inArray(poolLeads.id, leadIds)));
    const [claimed] = await tx
      .update(finderRuns)
      .set({ processed: run.processed + leadIds.length, status: 'running', expiresAt, updatedAt: call.now })
      .where(eq(finderRuns.id, run.id))
      .returning();
    return { stale: false, run: claimed, leadIds, leads: new Map(rows.map((r) => [r.id, r])) };
  });
}
