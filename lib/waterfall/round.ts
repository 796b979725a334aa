// run_find_emails with its token: one round of ≤ 25 leads in three steps. (1) claim.ts hands this round its leads
// in a short locked transaction; (2) search.ts asks the providers with no transaction open; (3) here, one
// transaction writes the addresses, charges 1 credit per address written (reference `finder:<lead_id>`: a lead is
// never charged twice, whatever runs or rounds race), moves the run's counters and writes the audit row. Every
// provider call is logged in finder_calls before that, so a call that cost money is on record even if the round
// dies before it commits.
import { and, eq, isNull, sql } from 'drizzle-orm';
import { confirmTokens, finderCalls, finderRuns, poolLeads } from '../../schema';
import { writeAudit } from '../agency/audit';
import type { AgencyCall } from '../agency/operation';
import { chargeCredits } from '../credits/ledger';
import { isUniqueViolation } from '../db/types';
import { ApiError } from '../errors';
import { findNeverMail } from '../pool/never_mail';
import { claimRound } from './claim';
import { previewRun, type RunInput } from './preview';
import { isClosed, runOfToken, runView, type RunRow } from './run_state';
import type { RoundOutcome, RoundResult } from './schema';
import { searchRound, type LeadResult } from './search';

class LeadChanged extends Error {}

export async function runRound(call: AgencyCall, input: RunInput & { confirm_token: string }): Promise<RoundResult> {
  const { run: seen, stateHash } = await runOfToken(call.services.db, call, input, input.confirm_token);
  const claim = await claimRound(call, input, seen.id, stateHash);
  if (claim.stale) {
    const fresh = await previewRun(call, { client_id: input.client_id, lead_ids: input.lead_ids });
    throw new ApiError('preview_stale', "the run's leads changed since the preview (an email arrived, a lead was removed or another run took it); review the fresh preview and confirm with its token", {
      body: { ...fresh },
    });
  }
  // Every lead of the run is already in a round (a concurrent one still committing): nothing to hand out.
  if (claim.leadIds.length === 0) return { run: runView(claim.run), round: { leads: [], credits: 0 } };

  const results = await searchRound(call, claim.run.clientId, claim.leadIds, claim.leads);
  await logCalls(call, claim.run, results);
  return commitRound(call, claim.run.id, results);
}

async function logCalls(call: AgencyCall, run: RunRow, results: LeadResult[]) {
  const rows = results.flatMap((r) =>
    r.calls.map((c) => ({
      orgId: call.auth.orgId,
      clientId: run.clientId,
      runId: run.id,
      leadId: r.leadId,
      provider: c.provider,
      operation: c.operation,
      domain: r.domain,
      email: c.email,
      outcome: c.outcome,
      costMicros: c.costMicros,
      simulated: c.simulated,
      at: call.now,
    })),
  );
  if (rows.length) await call.services.db.insert(finderCalls).values(rows);
}

async function commitRound(call: AgencyCall, runId: string, results: LeadResult[]): Promise<RoundResult> {
  const orgId = call.auth.orgId;
  return call.services.db.transaction(async (tx) => {
    const [run] = await tx.select().from(finderRuns).where(and(eq(finderRuns.id, runId), eq(finderRuns.orgId, orgId))).for('update');
    const found = results.filter((r) => r.outcome === 'found');
    // Checked again inside the write: an entry added while the providers searched still counts.
    const blocked = await findNeverMail(tx, { orgId, clientId: run.clientId, leads: found.map((r) => ({ email: r.email })) });
    let credits = 0;
    for (const [i, r] of found.entries()) {
      if (blocked.has(i)) {
        r.outcome = 'never_mail';
        continue;
      }
      try {
        // A savepoint per lead: a lead that cannot take its address rolls back alone, the round goes on.
        await tx.transaction(async (sp) => {
          const at = call.now.toISOString();
          const source = { source: `finder:${r.provider}`, by: call.actor, at };
          const written = await sp
            .update(poolLeads)
            .set({
              email: r.email,
              emailStatus: r.emailStatus,
              status: 'new',
              provenance: sql`${poolLeads.provenance} || ${JSON.stringify({ email: source, email_status: source })}::jsonb`,
              updatedAt: call.now,
            })
            .where(and(eq(poolLeads.id, r.leadId), eq(poolLeads.orgId, orgId), eq(poolLeads.clientId, run.clientId), isNull(poolLeads.email), eq(poolLeads.status, 'waiting_for_email')))
            .returning({ id: poolLeads.id });
          if (written.length === 0) throw new LeadChanged();
          const charge = await chargeCredits(sp, {
            orgId,
            key: { keyId: call.auth.keyId, dailyCreditLimit: call.auth.dailyCreditLimit },
            reference: `finder:${r.leadId}`,
            amount: 1,
            reason: 'run_find_emails',
            now: call.now,
          });
          if (charge.charged) credits += 1;
        });
      } catch (err) {
        r.outcome = outcomeOfRefusal(err);
      }
    }
    const written = results.filter((r) => r.outcome === 'found').length;
    const everyLeadFailed = results.length > 0 && results.every((r) => r.outcome === 'error');
    const status = everyLeadFailed ? 'failed' : run.processed >= run.leadIds.length ? 'done' : 'waiting_continue';
    const [after] = await tx
      .update(finderRuns)
      .set({ found: run.found + written, credits: run.credits + credits, status, updatedAt: call.now })
      .where(eq(finderRuns.id, run.id))
      .returning();
    if (isClosed(after)) await tx.update(confirmTokens).set({ usedAt: call.now }).where(eq(confirmTokens.tokenHash, run.tokenHash));
    const outcomes = results.reduce<Partial<Record<RoundOutcome, number>>>((acc, r) => ({ ...acc, [r.outcome]: (acc[r.outcome] ?? 0) + 1 }), {});
    await writeAudit(tx, {
      orgId,
      actor: call.actor,
      action: 'waterfall.round',
      target: `client:${run.clientId}`,
      detail: { run_id: run.id, leads: results.length, found: written, outcomes, found_lead_ids: results.filter((r) => r.outcome === 'found').map((r) => r.leadId), run_status: status },
      credits,
      at: call.now,
    });
    const retry = results.reduce<number | null>((m, r) => (r.retryAfterSec !== null ? Math.max(m ?? 0, r.retryAfterSec) : m), null);
    return {
      run: runView(after),
      round: {
        leads: results.map((r) => {
          const used = r.outcome === 'found';
          return {
            lead_id: r.leadId,
            email: used ? r.email : null,
            email_status: used || r.outcome === 'invalid' ? r.emailStatus : null,
            provider: r.provider && r.outcome !== 'rate_limited' && r.outcome !== 'error' ? r.provider : null,
            outcome: r.outcome,
          };
        }),
        credits,
        ...(retry !== null && { retry_after_sec: retry }),
      },
    };
  });
}

function outcomeOfRefusal(err: unknown): RoundOutcome {
  if (err instanceof LeadChanged) return 'skipped';
  if (isUniqueViolation(err, 'pool_leads_client_email_uq')) return 'duplicate';
  if (err instanceof ApiError && (err.code === 'insufficient_credits' || err.code === 'daily_credit_limit_exceeded')) return 'no_credits';
  throw err;
}
