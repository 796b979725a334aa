import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import { finderCalls, finderRuns, poolLeads } from '../../../schema';
import { writeAudit } from '../../agency/audit';
import type { AgencyCall } from '../../agency/operation';
import type { AuthContext } from '../../auth/keys';
import { chargeCredits } from '../../credits/ledger';
import { findNeverMail } from '../../pool/never_mail';
import { searchRound, type LeadResult } from '../../waterfall/search';
import { MAX_RUN_LEADS, ROUND_SIZE, selectLeads } from '../../waterfall/selection';
import type { StepContext, StepKind } from '../step_kind';

const Params = z
  .object({
    max_leads: z.number().int().min(1).max(MAX_RUN_LEADS).default(100).describe('at most this many waiting leads are searched (1 credit per email found)'),
  })
  .strict();
type Params = z.infer<typeof Params>;

const RUN_TTL_MS = 24 * 60 * 60 * 1000;

// The run's reference is the step id: finder_runs.token_hash is unique, so a second delivery of the step finds the
// run the first one opened and carries on from its cursor instead of searching the same leads again.
const runRef = (stepId: string) => `plan-step:${stepId}`;

async function openRun(ctx: StepContext, p: Params) {
  const db = ctx.services.db;
  const [existing] = await db.select().from(finderRuns).where(and(eq(finderRuns.tokenHash, runRef(ctx.stepId)), eq(finderRuns.orgId, ctx.orgId)));
  if (existing) return existing;
  const s = await selectLeads(db, { orgId: ctx.orgId, clientId: ctx.clientId, now: ctx.now });
  const leadIds = s.eligible.slice(0, p.max_leads).map((l) => l.id);
  const [run] = await db
    .insert(finderRuns)
    .values({ orgId: ctx.orgId, clientId: ctx.clientId, keyId: null, tokenHash: runRef(ctx.stepId), leadIds, status: 'running', expiresAt: new Date(ctx.now.getTime() + RUN_TTL_MS), createdAt: ctx.now, updatedAt: ctx.now })
    .onConflictDoNothing()
    .returning();
  if (run) return run;
  const [raced] = await db.select().from(finderRuns).where(eq(finderRuns.tokenHash, runRef(ctx.stepId)));
  return raced;
}

/** Writes one round's addresses and charges 1 credit each under the waterfall's own reference `finder:<lead_id>`. */
async function commitRound(ctx: StepContext, runId: string, clientId: string, results: LeadResult[]) {
  return ctx.services.db.transaction(async (tx) => {
    const [run] = await tx.select().from(finderRuns).where(eq(finderRuns.id, runId)).for('update');
    const found = results.filter((r) => r.outcome === 'found');
    const blocked = await findNeverMail(tx, { orgId: ctx.orgId, clientId, leads: found.map((r) => ({ email: r.email })) });
    let written = 0;
    let credits = 0;
    for (const [i, r] of found.entries()) {
      if (blocked.has(i)) continue;
      try {
        await tx.transaction(async (sp) => {
          const source = { source: `finder:${r.provider}`, by: ctx.actor, at: ctx.now.toISOString() };
          const rows = await sp
            .update(poolLeads)
            .set({ email: r.email, emailStatus: r.emailStatus, status: 'new', provenance: sql`${poolLeads.provenance} || ${JSON.stringify({ email: source, email_status: source })}::jsonb`, updatedAt: ctx.now })
            .where(and(eq(poolLeads.id, r.leadId), eq(poolLeads.orgId, ctx.orgId), eq(poolLeads.clientId, clientId), isNull(poolLeads.email), eq(poolLeads.status, 'waiting_for_email')))
            .returning({ id: poolLeads.id });
          if (rows.length === 0) throw new Error('lead changed');
          const charge = await chargeCredits(sp, { orgId: ctx.orgId, key: null, reference: `finder:${r.leadId}`, amount: 1, reason: 'plan_step:find_emails', now: ctx.now });
          written += 1;
          if (charge.charged) credits += 1;
        });
      } catch {
        // The lead took another address meanwhile, the address belongs to another lead, or credits ran out: that
        // lead stays as it was; the round goes on.
      }
    }
    const status = run.processed >= run.leadIds.length ? 'done' : 'running';
    await tx.update(finderRuns).set({ found: run.found + written, credits: run.credits + credits, status, updatedAt: ctx.now }).where(eq(finderRuns.id, run.id));
    await writeAudit(tx, { orgId: ctx.orgId, actor: ctx.actor, action: 'waterfall.round', target: `client:${clientId}`, detail: { run_id: run.id, plan_step_id: ctx.stepId, leads: results.length, found: written }, credits, at: ctx.now });
    return { found: run.found + written, credits: run.credits + credits };
  });
}

/**
 * Runs the email-finder waterfall over the client's leads waiting for an email, in rounds of 25, like
 * run_find_emails but with no key: the step id is the run's reference and credits are charged per address found.
 * What it found cannot be unfound (the providers were paid), so it is not undoable.
 */
export const findEmailsStep: StepKind<Params> = {
  kind: 'find_emails',
  summary: (p) => `Find work emails for up to ${p.max_leads} leads waiting for one`,
  params: Params,
  buys: false,
  undoable: false,
  credits: (p) => p.max_leads,
  // Which leads wait for an email on the step's day is not known in advance (imports go on), so nothing to refuse.
  dryRun: async () => [],
  run: async (ctx, p) => {
    let run = await openRun(ctx, p);
    const call = { services: ctx.services, auth: { orgId: ctx.orgId } as AuthContext, via: 'rest', actor: ctx.actor, now: ctx.now } as AgencyCall;
    let totals = { found: run.found, credits: run.credits };
    while (run.status === 'running' && run.processed < run.leadIds.length) {
      const claimed = await ctx.services.db.transaction(async (tx) => {
        const [locked] = await tx.select().from(finderRuns).where(eq(finderRuns.id, run.id)).for('update');
        const ids = locked.leadIds.slice(locked.processed, locked.processed + ROUND_SIZE);
        const [moved] = await tx.update(finderRuns).set({ processed: locked.processed + ids.length, updatedAt: ctx.now }).where(eq(finderRuns.id, run.id)).returning();
        return { ids, run: moved };
      });
      run = claimed.run;
      if (claimed.ids.length === 0) break;
      const rows = await ctx.services.db.select().from(poolLeads).where(and(eq(poolLeads.orgId, ctx.orgId), inArray(poolLeads.id, claimed.ids)));
      const results = await searchRound(call, ctx.clientId, claimed.ids, new Map(rows.map((r) => [r.id, r])));
      const calls = results.flatMap((r) => r.calls.map((c) => ({ orgId: ctx.orgId, clientId: ctx.clientId, runId: run.id, leadId: r.leadId, provider: c.provider, operation: c.operation, domain: r.domain, email: c.email, outcome: c.outcome, costMicros: c.costMicros, simulated: c.simulated, at: ctx.now })));
      if (calls.length) await ctx.services.db.insert(finderCalls).values(calls);
      totals = await commitRound(ctx, run.id, ctx.clientId, results);
    }
    await ctx.services.db.update(finderRuns).set({ status: 'done', updatedAt: ctx.now }).where(and(eq(finderRuns.id, run.id), eq(finderRuns.status, 'running')));
    return { finder_run_id: run.id, leads: run.leadIds.length, found: totals.found, credits: totals.credits };
  },
};
