// The step kinds this issue ships, run through a plan on the test clock: recipe_go_live (only a dry-run-passed
// version; undo brings the previous live version back), find_emails (the waterfall with the step id as its run's
// reference: a repeated run searches and charges nothing again), and oncePerStep for the kinds that change a row.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeAudit } from '../../lib/agency/audit';
import { insertRecipe } from '../../lib/recipes/create';
import { addDraftVersion, DRY_RUN_PASSED } from '../../lib/recipes/versions';
import { findRecipe } from '../../lib/recipes/load';
import { stepKind } from '../../lib/plans/registry';
import { creditLedger, enrichRuns, organizations, poolLeads, recipes } from '../../schema';
import { addLeads, drain as drainFormulaJobs, liveRecipe, runRow } from '../formulas/run_helpers';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { addPoolLeads } from '../agency/pool_reads_helpers';
import { advanceTo, planTenant } from './plans_helpers';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

const passDryRun = (orgId: string, recipeId: string, version: number) =>
  writeAudit(env.services.db, { orgId, actor: 'test', action: DRY_RUN_PASSED, target: `recipe:${recipeId}`, detail: { version }, at: env.clock.now() });

describe('recipe_go_live', () => {
  it('refuses (in the dry run) a version without a passed dry run; makes it live on its day; undo restores the previous', async () => {
    const a = await planTenant(env);
    const db = env.services.db;
    const recipe = await insertRecipe(db, { orgId: a.t.org.id, clientId: a.t.client.id, name: 'Enrich', definition: { steps: [{ type: 'dns_scan' }] }, actor: 'test', now: env.clock.now() });
    await db.update(recipes).set({ liveVersion: 1, draftVersion: null }).where(eq(recipes.id, recipe.id));
    await addDraftVersion(db, await findRecipe(db, a.t.org.id, a.t.client.id, recipe.id), { steps: [{ type: 'dns_scan' }, { type: 'find_email' }] } as never, { actor: 'test', now: env.clock.now() });
    const { plan } = await a.propose('recipe_go_live', { recipe_id: recipe.id });
    expect(plan.dry_run.problems).toEqual([`Step 1 (recipe_go_live): Version 2 of recipe "Enrich" has no passed dry run; confirm preview_recipe on it first.`]);
    await passDryRun(a.t.org.id, recipe.id, 2);
    const { done } = await a.confirm(`/v1/agency/plans/${plan.id}/approve`);
    expect(done.status, done.text).toBe(200);
    await advanceTo(env, done.json.plan.steps[0].due_at);
    const ran = await a.getPlan(plan.id);
    expect(ran.steps[0]).toMatchObject({ status: 'done', result: { recipe_id: recipe.id, version: 2, previous_live_version: 1 } });
    expect((await findRecipe(db, a.t.org.id, a.t.client.id, recipe.id)).liveVersion).toBe(2);
    const undone = await a.confirm(`/v1/agency/plans/${plan.id}/steps/${ran.steps[0].id}/undo`);
    expect(undone.done.status, undone.done.text).toBe(200);
    const after = await findRecipe(db, a.t.org.id, a.t.client.id, recipe.id);
    expect([after.liveVersion, after.draftVersion]).toEqual([1, 2]);
    // A repeated run of the step (a duplicate delivery) answers the first result and changes nothing.
    const kind = stepKind('recipe_go_live')!;
    const again = await kind.run({ services: env.services, orgId: a.t.org.id, clientId: a.t.client.id, stepId: ran.steps[0].id, planId: plan.id, now: env.clock.now(), actor: 'system' }, { recipe_id: recipe.id });
    expect(again).toEqual(ran.steps[0].result);
    expect((await findRecipe(db, a.t.org.id, a.t.client.id, recipe.id)).liveVersion).toBe(1);
  });
});

describe('find_emails', () => {
  it('finds emails for waiting leads on its day, charges 1 credit per address, and never searches or charges twice', async () => {
    const a = await planTenant(env);
    const waiting = Array.from({ length: 6 }, (_, i) => ({ email: null, emailStatus: null, status: 'waiting_for_email' as const, firstName: `Ann${i}`, lastName: 'Miller', domain: `miller-${i}-co.com` }));
    await addPoolLeads(env, a.t, waiting as never);
    const balance = async () => (await env.services.db.select({ c: organizations.credits }).from(organizations).where(eq(organizations.id, a.t.org.id)))[0].c;
    const before = await balance();
    const { plan } = await a.propose('find_emails', { max_leads: 10 });
    expect(plan.steps[0]).toMatchObject({ credits: 10, buys: false, undoable: false });
    const { done } = await a.confirm(`/v1/agency/plans/${plan.id}/approve`);
    expect(done.status, done.text).toBe(200);
    await advanceTo(env, done.json.plan.steps[0].due_at);
    const ran = (await a.getPlan(plan.id)).steps[0];
    expect(ran.status, JSON.stringify(ran)).toBe('done');
    expect(ran.result).toMatchObject({ leads: 6, found: expect.any(Number), credits: expect.any(Number) });
    const withEmail = await env.services.db.select().from(poolLeads).where(and(eq(poolLeads.clientId, a.t.client.id), eq(poolLeads.status, 'new')));
    expect(ran.result.found).toBeGreaterThan(0);
    expect(withEmail.length).toBe(ran.result.found);
    expect(ran.result.credits).toBe(ran.result.found);
    expect(before - (await balance())).toBe(ran.result.found);
    const ledger = await env.services.db.select().from(creditLedger).where(eq(creditLedger.orgId, a.t.org.id));
    expect(ledger.filter((l) => l.reason === 'plan_step:find_emails')).toHaveLength(ran.result.found);
    const kind = stepKind('find_emails')!;
    const again = await kind.run({ services: env.services, orgId: a.t.org.id, clientId: a.t.client.id, stepId: ran.id, planId: plan.id, now: env.clock.now(), actor: 'system' }, { max_leads: 10 });
    expect(again).toMatchObject({ finder_run_id: ran.result.finder_run_id, found: ran.result.found });
    expect(before - (await balance())).toBe(ran.result.found);
  });
});

describe('run_formula', () => {
  it("starts a formula run on its day over the recipe's live version, capped at max_credits; a repeated run starts no second run", async () => {
    const a = await planTenant(env);
    await addLeads(env, a.t, [{ company: 'Acme Software', title: 'VP Sales' }, { company: 'Baker Bakery', title: 'Owner' }]);
    const recipe = await liveRecipe(env, a.t, [{ type: 'formula', column_key: 'seniority', formula: 'seniority_from_title' }]);
    const { plan } = await a.propose('run_formula', { recipe_id: recipe.id, max_credits: 5 });
    expect(plan.dry_run.problems).toEqual([]);
    const { done } = await a.confirm(`/v1/agency/plans/${plan.id}/approve`);
    expect(done.status, done.text).toBe(200);
    await advanceTo(env, done.json.plan.steps[0].due_at);
    const ran = (await a.getPlan(plan.id)).steps[0];
    expect(ran.status, JSON.stringify(ran)).toBe('done');
    expect(ran.result).toMatchObject({ leads: 2, version: 1 });
    await drainFormulaJobs(env);
    expect(await runRow(env, ran.result.run_id)).toMatchObject({ status: 'done', recipeVersion: 1, written: 2, actor: 'system' });
    const kind = stepKind('run_formula')!;
    const again = await kind.run({ services: env.services, orgId: a.t.org.id, clientId: a.t.client.id, stepId: ran.id, planId: plan.id, now: env.clock.now(), actor: 'system' }, { recipe_id: recipe.id, max_credits: 5 });
    expect(again).toEqual(ran.result);
    const runs = await env.services.db.select().from(enrichRuns).where(eq(enrichRuns.clientId, a.t.client.id));
    expect(runs).toHaveLength(1);
  });
});
