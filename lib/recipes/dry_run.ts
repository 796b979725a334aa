import { and, asc, eq, inArray, ne } from 'drizzle-orm';
import { z } from 'zod';
import { poolLeads } from '../../schema';
import type { Db } from '../db/types';
import { ApiError } from '../errors';
import { defOfStep, evaluateStep } from '../formulas/evaluate';
import type { PoolLeadRow } from '../pool/view';
import { nameParts } from '../ports/finder/sim';
import type { Services } from '../services';
import { finderDomain, hasFinderInputs, waitsForEmail } from '../waterfall/selection';
import { isColumnStep, RECIPE_LIMITS, type RecipeDefinition, type RecipeStep } from './schema';

// preview_recipe's dry run: every step on at most 10 leads, exactly as a run would evaluate it, but nothing is kept.
// The whole dry run happens inside a transaction (a savepoint inside the confirm's) that is always rolled back, so
// even what the ports log (enrichment_calls) leaves no row; the finder is never called (eligibility only).

export const OUTCOMES = ['written', 'empty', 'skipped', 'failed', 'eligible', 'has_email', 'not_eligible'] as const;
export type Outcome = (typeof OUTCOMES)[number];

export const CellPreviewSchema = z.object({
  step: z.number().int(),
  type: z.string(),
  column_key: z.string().nullable(),
  outcome: z
    .enum(OUTCOMES)
    .describe('written: a value; empty: nothing found (free); skipped: inputs missing (free); failed: an error; find_email only: eligible (a run would search), has_email, not_eligible'),
  value: z.unknown().optional(),
  missing: z.array(z.string()).optional(),
  error: z.string().optional(),
  credits: z.number().int().describe('what a real run would charge for this cell (find_email: at most, if an email is found)'),
});
export type CellPreview = z.infer<typeof CellPreviewSchema>;

export const LeadPreviewSchema = z.object({
  lead_id: z.string(),
  email: z.string().nullable(),
  name: z.string().nullable(),
  company: z.string().nullable(),
  steps: z.array(CellPreviewSchema),
  credits: z.number().int(),
});

export const StepSummarySchema = z.object({
  step: z.number().int(),
  type: z.string(),
  column_key: z.string().nullable(),
  counts: z.record(z.string(), z.number().int()),
  credits: z.number().int(),
});

export type DryRun = {
  leads: z.infer<typeof LeadPreviewSchema>[];
  steps: z.infer<typeof StepSummarySchema>[];
  failed: number;
  credits_if_run: number;
};

/** The leads a dry run covers: the named ones (all of this client's pool, else not_found naming them) or the first 10. */
export async function dryRunLeads(db: Db, orgId: string, clientId: string, leadIds?: readonly string[]): Promise<PoolLeadRow[]> {
  const tenant = and(eq(poolLeads.orgId, orgId), eq(poolLeads.clientId, clientId));
  if (leadIds && leadIds.length) {
    const ids = [...new Set(leadIds.map((id) => id.toLowerCase()))];
    const found = await db.select().from(poolLeads).where(and(tenant, inArray(poolLeads.id, ids)));
    const byId = new Map(found.map((r) => [r.id, r]));
    const unknown = ids.filter((id) => !byId.has(id));
    if (unknown.length) throw new ApiError('not_found', `lead_ids: no lead ${unknown.join(', ')} in this client's pool`, { body: { unknown_lead_ids: unknown } });
    return ids.map((id) => byId.get(id)!);
  }
  return db
    .select()
    .from(poolLeads)
    .where(and(tenant, ne(poolLeads.status, 'removed')))
    .orderBy(asc(poolLeads.createdAt), asc(poolLeads.id))
    .limit(RECIPE_LIMITS.preview_leads);
}

class Rollback extends Error {
  constructor(readonly result: DryRun) {
    super('dry run rolled back');
  }
}

type Ctx = { services: Services; db: Db; orgId: string; clientId: string; now: Date };

async function cellOf(ctx: Ctx, step: RecipeStep, n: number, lead: PoolLeadRow): Promise<CellPreview> {
  const base = { step: n, type: step.type, column_key: isColumnStep(step) ? step.column_key : null };
  if (isColumnStep(step)) {
    const def = await defOfStep(ctx.db, ctx.orgId, step);
    const cell = await evaluateStep(ctx.services, { db: ctx.db, orgId: ctx.orgId, clientId: ctx.clientId, now: ctx.now }, step, lead);
    switch (cell.status) {
      case 'written':
        // Later steps read what this one wrote, as in a run.
        lead.custom = { ...lead.custom, [step.column_key]: cell.value };
        return { ...base, outcome: 'written', value: cell.value, credits: def?.credit_cost ?? 0 };
      case 'empty':
        return { ...base, outcome: 'empty', credits: 0 };
      case 'skipped':
        return { ...base, outcome: 'skipped', missing: cell.missing, credits: 0 };
      default:
        return { ...base, outcome: 'failed', error: cell.error, credits: 0 };
    }
  }
  if (step.type === 'find_email') {
    if (lead.email) return { ...base, outcome: 'has_email', credits: 0 };
    if (!waitsForEmail(lead)) return { ...base, outcome: 'not_eligible', credits: 0 };
    if (!hasFinderInputs(lead)) {
      const hasName = nameParts({ first_name: lead.firstName, last_name: lead.lastName, full_name: lead.fullName }) !== null;
      const missing = [...(hasName ? [] : ['name']), ...(finderDomain(lead) ? [] : ['company_domain'])];
      return { ...base, outcome: 'not_eligible', missing, credits: 0 };
    }
    return { ...base, outcome: 'eligible', credits: 1 };
  }
  const domain = finderDomain(lead);
  if (!domain) return { ...base, outcome: 'skipped', missing: ['company_domain'], credits: 0 };
  try {
    if (step.type === 'dns_scan') {
      const scan = (await ctx.services.studio.dns.scan([domain])).get(domain);
      if (!scan) return { ...base, outcome: 'empty', credits: 0 };
      return { ...base, outcome: 'written', value: { mail_type: scan.mail_type, current_sender: scan.current_sender }, credits: 0 };
    }
    const found = await ctx.services.studio.enrichment.signals({ db: ctx.db, orgId: ctx.orgId, now: ctx.now }, domain, step.kinds);
    if (found.length === 0) return { ...base, outcome: 'empty', credits: 0 };
    return { ...base, outcome: 'written', value: found.map((s) => ({ kind: s.kind, title: s.title, happened_on: s.happened_on })), credits: 1 };
  } catch (err) {
    return { ...base, outcome: 'failed', error: err instanceof Error ? err.message : String(err), credits: 0 };
  }
}

async function evaluate(ctx: Ctx, def: RecipeDefinition, leads: PoolLeadRow[]): Promise<DryRun> {
  const steps = def.steps.map((s, i) => ({
    step: i + 1,
    type: s.type,
    column_key: isColumnStep(s) ? s.column_key : null,
    counts: {} as Record<string, number>,
    credits: 0,
  }));
  const out: DryRun = { leads: [], steps, failed: 0, credits_if_run: 0 };
  for (const row of leads) {
    // A copy: the columns earlier steps write are seen by later ones without touching the row.
    const lead: PoolLeadRow = { ...row, custom: { ...row.custom } };
    const cells: CellPreview[] = [];
    for (const [i, step] of def.steps.entries()) {
      const cell = await cellOf(ctx, step, i + 1, lead);
      cells.push(cell);
      steps[i].counts[cell.outcome] = (steps[i].counts[cell.outcome] ?? 0) + 1;
      steps[i].credits += cell.credits;
      if (cell.outcome === 'failed') out.failed++;
    }
    const credits = cells.reduce((a, c) => a + c.credits, 0);
    out.credits_if_run += credits;
    out.leads.push({
      lead_id: row.id,
      email: row.email,
      name: row.fullName ?? ([row.firstName, row.lastName].filter(Boolean).join(' ') || null),
      company: row.company,
      steps: cells,
      credits,
    });
  }
  return out;
}

/** Runs the definition on the leads and rolls back everything it touched; `db` may be a transaction (savepoint). */
export async function dryRun(services: Services, db: Db, q: { orgId: string; clientId: string; now: Date }, def: RecipeDefinition, leads: PoolLeadRow[]): Promise<DryRun> {
  try {
    await db.transaction(async (tx) => {
      throw new Rollback(await evaluate({ services, db: tx, ...q }, def, leads));
    });
  } catch (err) {
    if (err instanceof Rollback) return err.result;
    throw err;
  }
  throw new Error('unreachable: the dry run transaction always rolls back');
}
