// Formulas and their runs on both faces: find_formulas, create_formula (REST), request_publish_formula (paying
// only), run_formula's preview (ceiling, confirm_large, skips, only empty cells), rounds as queued jobs, credits
// charged exactly per cell written, a retried round charging nothing, stop (also mid-round), continue after the
// credits ran out (and its write scope), determinism, and tenant isolation.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRound } from '../../lib/formulas/run_round';
import { apiKeys, enrichRuns, organizations, poolColumns, recipes, recipeVersions } from '../../schema';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { addLeads, agencyTenant, auditOf, balance, drain, itemsOf, ledgerOf, leadsOf, liveRecipe, runRow, startRun, type Agency } from '../formulas/run_helpers';

let env: TestEnv;
beforeAll(async () => {
  // A database of its own in the integration tier: its drain runs its own rounds, and no other file's drain can take
  // them half-way (seen in CI: a run still `running` after this file's drain).
  env = await startTestEnv({}, { ownDatabase: true });
});
afterAll(() => env.close());

const QUESTION = { type: 'question', column_key: 'sells_software', question: 'Does {company} sell software?', output_type: 'boolean' };
const SENIORITY = { type: 'formula', column_key: 'seniority', formula: 'seniority_from_title' };
const runPath = (a: Agency, recipeId: string) => `/v1/agency/clients/${a.t.client.id}/recipes/${recipeId}/run`;
const getPath = (a: Agency, runId: string) => `/v1/agency/clients/${a.t.client.id}/runs/${runId}`;

describe('find_formulas', () => {
  it('finds by goal or text in the shared library (alias saleslobe) and the agency\'s own; same answer on both faces', async () => {
    const a = await agencyTenant(env);
    const byGoal = await a.rest('GET', '/v1/agency/formulas?goal=seniority');
    expect(byGoal.status, byGoal.text).toBe(200);
    expect(byGoal.json.formulas[0].id).toBe('seniority_from_title');
    expect(byGoal.json.formulas.every((f: { library: string }) => f.library === 'shared')).toBe(true);
    const viaMcp = await a.tool('find_formulas', { goal: 'seniority' });
    expect(viaMcp.json).toEqual(byGoal.json);

    const all = await a.rest('GET', '/v1/agency/formulas?library=saleslobe');
    expect(all.json.formulas.length).toBeGreaterThanOrEqual(30);
    expect((await a.rest('GET', '/v1/agency/formulas?library=shared')).json).toEqual(all.json);
    expect((await a.rest('GET', '/v1/agency/formulas?q=timezone')).json.formulas.map((f: { id: string }) => f.id)).toContain('country_timezone');
    expect((await a.rest('GET', '/v1/agency/formulas?library=agency')).json.formulas).toEqual([]);

    const both = await a.rest('GET', '/v1/agency/formulas?goal=a&q=b');
    expect(both.status).toBe(400);
    expect(both.json.error.message).toMatch(/goal or q/);
    expect((await a.rest('GET', '/v1/agency/formulas?library=mine')).status).toBe(400);
  });
});

describe('create_formula and request_publish_formula', () => {
  it('creates an own formula (a broken expression is refused naming it), finds it, and publishes only when paying', async () => {
    const a = await agencyTenant(env, { paying: false });
    const bad = await a.rest('POST', '/v1/agency/formulas', { name: 'Greeting line', kind: 'expression', expression: 'concat(greeting(first_name, country)', output_type: 'text' });
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toMatch(/^expression: expected "\)"/);
    const created = await a.rest('POST', '/v1/agency/formulas', {
      name: 'Greeting line',
      goals: ['personalise'],
      kind: 'expression',
      expression: 'concat(greeting(first_name, country), " ", clean_company(company))',
      output_type: 'text',
    });
    expect(created.status, created.text).toBe(200);
    expect(created.json.formula).toMatchObject({ library: 'agency', kind: 'expression', credit_cost: 0, inputs: ['first_name', 'country', 'company'], publish_status: 'private' });
    const dup = await a.rest('POST', '/v1/agency/formulas', { name: 'Greeting line', kind: 'question', question: 'Is {company} big?', output_type: 'boolean' });
    expect(dup.status).toBe(409);
    expect(dup.json.formula.id).toBe(created.json.formula.id);

    const own = await a.tool('find_formulas', { library: 'agency' });
    expect(own.json.formulas.map((f: { id: string }) => f.id)).toEqual([created.json.formula.id]);

    const publish = `/v1/agency/formulas/${created.json.formula.id}/publish`;
    const refused = await a.rest('POST', publish, { author_opt_in: true });
    expect(refused.status).toBe(403);
    expect(refused.json.error.code).toBe('not_paying');
    const refusedMcp = await a.tool('request_publish_formula', { formula_id: created.json.formula.id });
    expect(refusedMcp.isError).toBe(true);
    expect(refusedMcp.text).toMatch(/^not_paying:/);

    await env.services.db.update(organizations).set({ paying: true }).where(eq(organizations.id, a.t.org.id));
    const anon = await a.rest('POST', publish, {});
    expect(anon.json.preview.author).toBeNull();
    const p = await a.tool('request_publish_formula', { formula_id: created.json.formula.id, author_opt_in: true });
    expect(p.json.preview.author).toBe(a.t.org.name);
    const done = await a.tool('request_publish_formula', { formula_id: created.json.formula.id, author_opt_in: true, confirm_token: p.json.confirm_token });
    expect(done.isError, done.text).toBe(false);
    expect(done.json.formula).toMatchObject({ publish_status: 'requested', author_opt_in: true });
    expect(await auditOf(env, a.t, 'formula.publish_requested')).toHaveLength(1);

    const other = await agencyTenant(env, { paying: true });
    const foreign = await other.rest('POST', publish, {});
    expect(foreign.status).toBe(404);
  });
});

describe('run_formula', () => {
  it('runs the version it was confirmed on, even when another version goes live before its rounds run', async () => {
    const a = await agencyTenant(env, { credits: 50 });
    await addLeads(env, a.t, [{ company: 'Acme Software', title: 'VP Sales' }]);
    const recipe = await liveRecipe(env, a.t, [SENIORITY]);
    const { run } = await startRun(a, recipe.id);
    // Version 2 (another column) goes live between the confirm and the first round.
    await env.services.db.insert(recipeVersions).values({ recipeId: recipe.id, version: 2, definition: { steps: [{ ...SENIORITY, column_key: 'level' }] }, createdBy: 'test' });
    await env.services.db.update(recipes).set({ liveVersion: 2 }).where(eq(recipes.id, recipe.id));
    await drain(env);
    expect(await runRow(env, run.id)).toMatchObject({ status: 'done', recipeVersion: 1, written: 1 });
    const [lead] = await leadsOf(env, a.t);
    expect(Object.keys(lead.custom)).toEqual(['seniority']);
    // The column a run writes is a pool column: list_leads can ask for it by key.
    const listed = await a.rest('GET', `/v1/agency/clients/${a.t.client.id}/leads?columns=seniority`);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.json.leads[0].custom).toEqual({ seniority: lead.custom.seniority });
  });

  it('previews the ceiling (skips and filled cells free), runs in queued rounds and charges exactly the cells written', async () => {
    const a = await agencyTenant(env, { credits: 50 });
    const leads = await addLeads(env, a.t, [
      { company: 'Acme Software', title: 'VP Sales' },
      { company: 'Acme Software', title: 'VP Sales' },
      { company: 'Baker Bakery', title: 'Owner' },
      { company: null, title: 'CTO' },
      { company: 'Filled Ltd', title: 'Engineer', custom: { sells_software: true, seniority: 'manual' } },
    ]);
    const recipe = await liveRecipe(env, a.t, [SENIORITY, QUESTION, { type: 'dns_scan' }]);
    const p = await a.rest('POST', runPath(a, recipe.id), {});
    expect(p.status, p.text).toBe(200);
    expect(p.json.preview).toMatchObject({ version: 1, leads: 4, cells: 7, credit_ceiling: 3, list: { kind: 'pool' } });
    expect(p.json.credits).toBe(3);
    expect(p.json.preview.columns).toEqual([
      expect.objectContaining({ column_key: 'seniority', formula: 'seniority_from_title', credit_cost: 0, cells: 4, already_filled: 1, missing_inputs: 0 }),
      expect.objectContaining({ column_key: 'sells_software', formula: 'question', credit_cost: 1, cells: 3, already_filled: 1, missing_inputs: 1 }),
    ]);
    expect(await balance(env, a.t)).toBe(50); // a preview charges nothing

    const c = await a.rest('POST', runPath(a, recipe.id), { confirm_token: p.json.confirm_token });
    expect(c.status, c.text).toBe(200);
    expect(c.json.run).toMatchObject({ status: 'running', total: 4, processed: 0, credits: 0, credit_cap: 3 });
    await drain(env);
    const done = await a.rest('GET', getPath(a, c.json.run.id));
    expect(done.json.run).toMatchObject({ status: 'done', total: 4, processed: 4, written: 7, credits: 3 });
    expect(await balance(env, a.t)).toBe(47);
    const ledger = await ledgerOf(env, a.t);
    expect(ledger.map((l) => l.reference).sort()).toEqual([leads[0], leads[1], leads[2]].map((l) => `run:${c.json.run.id}:${l.id}:sells_software`).sort());

    const after = await leadsOf(env, a.t);
    expect(after[0].custom).toEqual({ seniority: 'vp', sells_software: true });
    expect(after[1].custom).toEqual(after[0].custom); // equal inputs, equal outputs
    expect(after[0].provenance.sells_software.source).toBe('formula:question');
    expect(after[0].provenance.seniority.source).toBe('formula:seniority_from_title');
    expect(after[3].custom).toEqual({ seniority: 'c_level' }); // no company: the question skipped it
    expect(after[4].custom).toEqual({ sells_software: true, seniority: 'manual' }); // only empty cells
    const cols = await env.services.db.select().from(poolColumns).where(eq(poolColumns.clientId, a.t.client.id));
    expect(Object.fromEntries(cols.map((c2) => [c2.key, c2.type]))).toEqual({ seniority: 'text', sells_software: 'boolean' });

    // A retried round (the job delivered again, or run by hand) finds nothing pending and charges nothing.
    await runRound(env.services, c.json.run.id, { actor: 'system' });
    await env.services.db.update(enrichRuns).set({ status: 'running' }).where(eq(enrichRuns.id, c.json.run.id));
    await Promise.all([runRound(env.services, c.json.run.id, { actor: 'system' }), runRound(env.services, c.json.run.id, { actor: 'system' })]);
    expect(await balance(env, a.t)).toBe(47);
    expect(await ledgerOf(env, a.t)).toHaveLength(3);

    // overwrite: true rewrites filled cells; a second run over the same leads gives the same values.
    const again = await startRun(a, recipe.id, { column_key: 'seniority', overwrite: true });
    expect(again.preview.preview).toMatchObject({ cells: 5, credit_ceiling: 0 });
    await drain(env);
    const rewritten = await leadsOf(env, a.t);
    expect(rewritten.map((l) => l.custom.seniority)).toEqual(['vp', 'vp', 'owner', 'c_level', 'individual']);
  });

  it('the same on MCP; lead_ids and a list (import) choose the leads; unknown ids and columns are refused', async () => {
    const a = await agencyTenant(env, { credits: 10 });
    const leads = await addLeads(env, a.t, [{ title: 'Head of Marketing' }, { title: 'CEO' }, { title: 'Intern' }]);
    const recipe = await liveRecipe(env, a.t, [SENIORITY]);
    const p = await a.tool('run_formula', { client_id: a.t.client.id, recipe_id: recipe.id, lead_ids: [leads[1].id] });
    expect(p.json.preview).toMatchObject({ leads: 1, cells: 1, credit_ceiling: 0, list: { kind: 'lead_ids' } });
    const c = await a.tool('run_formula', { client_id: a.t.client.id, recipe_id: recipe.id, lead_ids: [leads[1].id], confirm_token: p.json.confirm_token });
    expect(c.isError, c.text).toBe(false);
    await drain(env);
    const viaTool = await a.tool('get_run', { client_id: a.t.client.id, run_id: c.json.run.id });
    expect(viaTool.json.run).toMatchObject({ status: 'done', written: 1 });
    expect((await a.rest('GET', getPath(a, c.json.run.id))).json).toEqual(viaTool.json);

    const badCol = await a.tool('run_formula', { client_id: a.t.client.id, recipe_id: recipe.id, column_key: 'nope' });
    expect(badCol.text).toMatch(/^validation_error: column_key: "nope" is not a column/);
    const other = await agencyTenant(env);
    const [foreign] = await addLeads(env, other.t, [{ title: 'CEO' }]);
    const r = await a.rest('POST', runPath(a, recipe.id), { lead_ids: [foreign.id] });
    expect(r.status).toBe(404);
    expect(r.json.error.message).toContain(foreign.id);
    expect((await other.rest('POST', `/v1/agency/clients/${other.t.client.id}/recipes/${recipe.id}/run`, {})).status).toBe(404);
    expect((await other.rest('GET', `/v1/agency/clients/${other.t.client.id}/runs/${c.json.run.id}`)).status).toBe(404);
    const listMissing = await a.rest('POST', runPath(a, recipe.id), { list_id: foreign.id });
    expect(listMissing.status).toBe(404);
  });

  it('above 200 credits the preview has no token unless confirm_large: true', async () => {
    const a = await agencyTenant(env, { credits: 1000 });
    await addLeads(env, a.t, Array.from({ length: 201 }, (_, i) => ({ company: `Co ${i}` })));
    const recipe = await liveRecipe(env, a.t, [QUESTION]);
    const p = await a.rest('POST', runPath(a, recipe.id), {});
    expect(p.json).toMatchObject({ confirm_token: null, blocked_by: 'confirm_large_required', credits: 201 });
    const mcp = await a.tool('run_formula', { client_id: a.t.client.id, recipe_id: recipe.id });
    expect(mcp.json).toMatchObject({ confirm_token: null, blocked_by: 'confirm_large_required' });
    const ok = await a.rest('POST', runPath(a, recipe.id), { confirm_large: true });
    expect(ok.json.confirm_token).toMatch(/^ct_/);
    // The token is bound to the arguments: confirm_large is one of them.
    const mismatch = await a.rest('POST', runPath(a, recipe.id), { confirm_token: ok.json.confirm_token });
    expect(mismatch.json.error.code).toBe('confirm_token_invalid');
    expect(await enrichRunsOf(a)).toHaveLength(0);
  });

  it('stop_run: written values stay, nothing more is charged, and a round in flight commits nothing', async () => {
    const a = await agencyTenant(env, { credits: 1000 });
    await addLeads(env, a.t, Array.from({ length: 250 }, (_, i) => ({ company: `Co ${i}` })));
    const recipe = await liveRecipe(env, a.t, [QUESTION]);
    const { run } = await startRun(a, recipe.id, { confirm_large: true });
    await runRound(env.services, run.id, { actor: 'system', chain: false });
    expect(await runRow(env, run.id)).toMatchObject({ processed: 100, credits: 100, status: 'running' });
    // The second round evaluates, then the stop lands before it commits.
    const inFlight = await runRound(env.services, run.id, {
      actor: 'system',
      beforeCommit: async () => {
        const s = await a.tool('stop_run', { client_id: a.t.client.id, run_id: run.id });
        expect(s.json).toMatchObject({ stopped: true, run: { status: 'stopped' } });
      },
    });
    expect(inFlight).toMatchObject({ written: 0, credits: 0 });
    await drain(env);
    expect(await runRow(env, run.id)).toMatchObject({ status: 'stopped', processed: 100, credits: 100 });
    expect(await balance(env, a.t)).toBe(900);
    expect((await leadsOf(env, a.t)).filter((l) => 'sells_software' in l.custom)).toHaveLength(100);
    const again = await a.rest('POST', `${getPath(a, run.id)}/stop`, {});
    expect(again.json).toMatchObject({ stopped: false, run: { status: 'stopped' } });
    const cont = await a.rest('POST', getPath(a, run.id), { continue: true });
    expect(cont.status).toBe(409);
    expect(await auditOf(env, a.t, 'formula_run.stopped')).toHaveLength(1);
  });

  it('credits running out pauses the run (waiting_continue); continue: true resumes it and needs agency.write', async () => {
    const a = await agencyTenant(env, { credits: 2 });
    await addLeads(env, a.t, [{ company: 'A' }, { company: 'B' }, { company: 'C' }]);
    const recipe = await liveRecipe(env, a.t, [QUESTION]);
    const { run } = await startRun(a, recipe.id);
    await drain(env);
    const paused = await runRow(env, run.id);
    expect(paused).toMatchObject({ status: 'waiting_continue', processed: 2, written: 2, credits: 2 });
    expect(paused.lastError).toMatch(/^insufficient_credits/);
    expect(await balance(env, a.t)).toBe(0);

    // continue is a write: an agency.read-only key hears insufficient_scope naming agency.write; GET refuses it.
    const readKey = await a.t.addKeyRecord({ name: 'reader', kind: 'agency' });
    await env.services.db.update(apiKeys).set({ scopes: ['agency.read'] }).where(eq(apiKeys.id, readKey.key.id));
    const refused = await a.t.call('POST', getPath(a, run.id), { key: readKey.secret, body: { continue: true } });
    expect(refused.json.error).toMatchObject({ code: 'insufficient_scope' });
    expect(refused.json.error.message).toContain('agency.write');
    const readMcp = await (await import('../helpers/mcp')).mcpClient(env, readKey.secret, { ip: a.t.ip });
    const viaTool = await readMcp.callTool({ name: 'get_run', arguments: { client_id: a.t.client.id, run_id: run.id, continue: true } });
    expect((viaTool.content as Array<{ text: string }>)[0].text).toMatch(/^insufficient_scope: .*agency\.write/);
    const viaGet = await a.rest('GET', `${getPath(a, run.id)}?continue=true`);
    expect(viaGet.status).toBe(400);

    await env.services.db.update(organizations).set({ credits: 5 }).where(eq(organizations.id, a.t.org.id));
    const resumed = await a.tool('get_run', { client_id: a.t.client.id, run_id: run.id, continue: true });
    expect(resumed.isError, resumed.text).toBe(false);
    expect(resumed.json).toMatchObject({ run: { status: 'done', processed: 3, written: 3, credits: 3 }, round: { leads: 1, cells_written: 1, credits: 1 } });
    expect(await balance(env, a.t)).toBe(4);
    expect((await itemsOf(env, run.id)).every((i) => i.status === 'written' && i.credits === 1)).toBe(true);
  });

  it('a recipe without a live version, or with nothing to do, gets no token', async () => {
    const a = await agencyTenant(env);
    await addLeads(env, a.t, [{ title: 'CEO', custom: { seniority: 'x' } }]);
    const recipe = await liveRecipe(env, a.t, [SENIORITY]);
    const nothing = await a.rest('POST', runPath(a, recipe.id), {});
    expect(nothing.json).toMatchObject({ confirm_token: null, blocked_by: 'conflict' });
    await env.services.db.execute(`update recipes set live_version = null where id = '${recipe.id}'` as never);
    const notLive = await a.rest('POST', runPath(a, recipe.id), {});
    expect(notLive.status).toBe(409);
    expect(notLive.json.error.message).toMatch(/no live version/);
  });
});

const enrichRunsOf = (a: Agency) => env.services.db.select().from(enrichRuns).where(eq(enrichRuns.orgId, a.t.org.id));
