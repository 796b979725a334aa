// The recipe tools on both faces: a recipe is data with a schema (the published JSON Schema validates every
// template and refuses what the validator refuses), a broken recipe is refused with one sentence per problem, versions
// are immutable (update_recipe and add_column add drafts, the live one stays until a person makes a draft live),
// copies and templates, the dry run (writes nothing, costs nothing), two-step stale/used, and tenant isolation.
import Ajv2020 from 'ajv/dist/2020';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STARTER_TEMPLATES } from '../../lib/recipes/templates';
import { makeDraftLive } from '../../lib/recipes';
import { auditLog, confirmTokens, creditLedger, enrichmentCalls, organizations, poolColumns, poolLeads, recipes, recipeTemplates, recipeVersions } from '../../schema';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { addPoolLeads, studioTenant, type StudioTenant } from './pool_reads_helpers';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

const DNS_ONLY = { steps: [{ type: 'dns_scan' }] };
const RICH = {
  steps: [
    { type: 'formula', column_key: 'seniority', formula: 'seniority_from_title' },
    { type: 'find_email' },
    { type: 'dns_scan' },
  ],
};

/** Preview then confirm over REST, asserting both succeed; the confirmed body. */
async function twoStep(s: StudioTenant, method: string, path: string, body: Record<string, unknown>) {
  const p = await s.rest(method, path, body);
  expect(p.status, p.text).toBe(200);
  expect(p.json.confirm_token, p.text).toBeTruthy();
  const c = await s.rest(method, path, { ...body, confirm_token: p.json.confirm_token });
  expect([200, 201], c.text).toContain(c.status);
  return { preview: p.json, result: c.json };
}

async function createRecipe(s: StudioTenant, name: string, definition: unknown = RICH) {
  const { result } = await twoStep(s, 'POST', `${s.base}/recipes`, { name, definition });
  return result.recipe as { id: string; live_version: number | null; draft_version: number | null; steps: unknown[] };
}

/** A read with no client: the GET route and the tool with the same (no) arguments give the same answer. */
async function readBoth(s: StudioTenant, name: string, path: string) {
  const viaRest = await s.rest('GET', path);
  const viaTool = await s.tool(name, {});
  expect(viaRest.status, viaRest.text).toBe(200);
  expect(viaTool.isError, viaTool.text).toBe(false);
  expect(viaTool.json).toEqual(viaRest.json);
  return viaRest.json;
}

const versionsOf = (recipeId: string) => env.services.db.select().from(recipeVersions).where(eq(recipeVersions.recipeId, recipeId)).orderBy(recipeVersions.version);

describe('get_recipe_schema', () => {
  it('publishes the JSON Schema of the zod definition: every template validates, broken recipes do not; the same on both faces', async () => {
    const s = await studioTenant(env);
    const rest = await s.rest('GET', '/v1/agency/recipes/schema');
    expect(rest.status, rest.text).toBe(200);
    const tool = await s.tool('get_recipe_schema', {});
    expect(tool.isError, tool.text).toBe(false);
    expect(tool.json).toEqual(rest.json);
    const doc = rest.json;
    expect(doc.hiring_roles).toEqual(['sales', 'marketing', 'technical', 'operations', 'customer_success', 'custom', 'default']);
    expect(doc.step_types.map((t: { type: string }) => t.type).sort()).toEqual(['dns_scan', 'find_email', 'formula', 'question', 'signals', 'vacancy_search']);
    for (const t of doc.step_types) expect(t.description.length, t.type).toBeGreaterThan(20);
    expect(doc.limits.max_steps).toBe(30);
    expect(doc.limits.preview_leads).toBe(10);

    const ajv = new Ajv2020({ strict: false, allErrors: true });
    const validate = ajv.compile(doc.schema);
    const templates = await readBoth(s, 'list_recipe_templates', '/v1/agency/recipe-templates');
    expect(templates.templates.filter((t: { source: string }) => t.source === 'starter').length).toBeGreaterThanOrEqual(6);
    for (const t of templates.templates) expect(validate({ steps: t.steps }), `${t.name}: ${JSON.stringify(validate.errors)}`).toBe(true);
    for (const t of STARTER_TEMPLATES) expect(validate(t.definition), t.name).toBe(true);

    // What the schema refuses the validator refuses too (the two are one definition).
    const broken = [
      { steps: [] },
      { steps: [{ type: 'vacancy_search', column_key: 'hiring', hiring_role: 'finance' }] },
      { steps: [{ type: 'formula', column_key: 'Bad Key', formula: 'industry' }] },
      { steps: [{ type: 'dns_scan', extra: true }] },
      { steps: [{ type: 'teleport' }] },
      { steps: Array.from({ length: 31 }, () => ({ type: 'dns_scan' })) },
    ];
    for (const def of broken) {
      expect(validate(def), JSON.stringify(def)).toBe(false);
      const r = await s.rest('POST', `${s.base}/recipes`, { name: 'Broken', definition: def });
      expect(r.status, JSON.stringify(def)).toBe(422);
      expect(r.json.error.code).toBe('recipe_invalid');
    }
  });
});

describe('create_recipe', () => {
  it('refuses a recipe with three problems with three sentences naming the steps, on both faces, writing nothing', async () => {
    const s = await studioTenant(env);
    const definition = {
      steps: [
        { type: 'vacancy_search', column_key: 'hiring', hiring_role: 'custom' },
        { type: 'formula', column_key: 'x', formula: 'foo' },
        { type: 'question', column_key: 'x', question: 'Is {company} B2B?', output_type: 'boolean' },
      ],
    };
    const r = await s.rest('POST', `${s.base}/recipes`, { name: 'Three problems', definition });
    expect(r.status, r.text).toBe(422);
    expect(r.json.error.code).toBe('recipe_invalid');
    expect(r.json.problems).toEqual([
      'Step 1 (vacancy_search): hiring_role "custom" needs custom_role (the role to look for in job titles, e.g. "revops").',
      'Step 2 (formula): unknown formula "foo"; find_formulas lists them.',
      'Step 3 (question): column_key "x" is already written by step 2; each column key may appear once.',
    ]);
    expect(r.json.error.message).toBe(r.json.problems.join(' '));
    const viaTool = await s.tool('create_recipe', { client_id: s.t.client.id, name: 'Three problems', definition });
    expect(viaTool.isError).toBe(true);
    expect(viaTool.text.startsWith('recipe_invalid: Step 1 (vacancy_search)')).toBe(true);
    expect(viaTool.json.problems).toEqual(r.json.problems);
    const [{ n }] = await env.services.db.select({ n: count() }).from(confirmTokens).where(eq(confirmTokens.orgId, s.t.org.id));
    expect(n).toBe(0);
  });

  it('names fixed pool fields, too many steps, a bad hiring_role and an unknown step type', async () => {
    const s = await studioTenant(env);
    const r = await s.rest('POST', `${s.base}/recipes`, {
      name: 'More problems',
      definition: {
        steps: [
          { type: 'formula', column_key: 'email', formula: 'industry' },
          { type: 'vacancy_search', column_key: 'h', hiring_role: 'finance' },
          { type: 'scrape' },
          { type: 'vacancy_search', column_key: 'h2', hiring_role: 'sales', custom_role: 'revops' },
        ],
      },
    });
    expect(r.status).toBe(422);
    expect(r.json.problems).toEqual([
      'Step 1 (formula): column_key "email" is a fixed pool field; choose another name.',
      'Step 2 (vacancy_search): hiring_role must be one of sales, marketing, technical, operations, customer_success, custom, default, not "finance".',
      'Step 3: unknown step type "scrape"; the types are vacancy_search, formula, question, find_email, dns_scan, signals.',
      'Step 4 (vacancy_search): custom_role applies only when hiring_role is "custom"; remove it or set hiring_role to "custom".',
    ]);
    const many = await s.rest('POST', `${s.base}/recipes`, { name: 'Many', definition: { steps: Array.from({ length: 31 }, () => ({ type: 'dns_scan' })) } });
    expect(many.json.problems).toEqual(['The recipe has 31 steps; at most 30 are allowed.']);
  });

  it('creates version 1 as a draft in two steps (preview shows the validated definition); the same name is 409 conflict with the recipe', async () => {
    const s = await studioTenant(env);
    const preview = await s.tool('create_recipe', { client_id: s.t.client.id, name: 'Hiring sales', definition: RICH });
    expect(preview.isError, preview.text).toBe(false);
    expect(preview.json.preview.recipe).toMatchObject({ name: 'Hiring sales', version: 1, status: 'draft', steps: RICH.steps });
    expect(preview.json.credits).toBe(0);
    const [{ n: before }] = await env.services.db.select({ n: count() }).from(recipes).where(eq(recipes.orgId, s.t.org.id));
    expect(before).toBe(0);
    const done = await s.tool('create_recipe', { client_id: s.t.client.id, name: 'Hiring sales', definition: RICH, confirm_token: preview.json.confirm_token });
    expect(done.isError, done.text).toBe(false);
    expect(done.json.recipe).toMatchObject({ name: 'Hiring sales', live_version: null, draft_version: 1, steps_version: 1, steps: RICH.steps });
    const audit = await env.services.db.select().from(auditLog).where(and(eq(auditLog.orgId, s.t.org.id), eq(auditLog.action, 'recipe.created')));
    expect(audit).toHaveLength(1);
    expect(audit[0].actor).toBe('mcp:assistant');

    const again = await s.rest('POST', `${s.base}/recipes`, { name: 'hiring SALES', definition: DNS_ONLY });
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe('conflict');
    expect(again.json.recipe.id).toBe(done.json.recipe.id);

    // Used token: 409; a token for other arguments: 400.
    const reuse = await s.tool('create_recipe', { client_id: s.t.client.id, name: 'Hiring sales', definition: RICH, confirm_token: preview.json.confirm_token });
    expect(reuse.text.split(':')[0]).toBe('confirm_token_used');
    const p2 = await s.rest('POST', `${s.base}/recipes`, { name: 'Other', definition: DNS_ONLY });
    const wrong = await s.rest('POST', `${s.base}/recipes`, { name: 'Other 2', definition: DNS_ONLY, confirm_token: p2.json.confirm_token });
    expect(wrong.json.error.code).toBe('confirm_token_invalid');
  });

  it('refuses the confirm with conflict when the name was taken after the preview, and creates from a template', async () => {
    const s = await studioTenant(env);
    const p = await s.rest('POST', `${s.base}/recipes`, { name: 'Race', definition: DNS_ONLY });
    await createRecipe(s, 'Race', RICH);
    const winner = (await env.services.db.select().from(recipes).where(eq(recipes.orgId, s.t.org.id)))[0];
    const c = await s.rest('POST', `${s.base}/recipes`, { name: 'Race', definition: DNS_ONLY, confirm_token: p.json.confirm_token });
    // The confirm reads the state again and finds the name taken: the refusal carries the recipe that has it.
    expect(c.status).toBe(409);
    expect(c.json.error.code).toBe('conflict');
    expect(c.json.recipe.id).toBe(winner.id);
    expect((await versionsOf(winner.id)).map((v) => v.definition)).toEqual([RICH]);

    const { result } = await twoStep(s, 'POST', `${s.base}/recipes`, { name: 'From template', template_id: 'starter:find_emails_dns' });
    expect(result.recipe.steps).toEqual([{ type: 'find_email' }, { type: 'dns_scan' }]);
    const both = await s.rest('POST', `${s.base}/recipes`, { name: 'Both', template_id: 'starter:find_emails_dns', definition: DNS_ONLY });
    expect(both.status).toBe(400);
    const unknown = await s.rest('POST', `${s.base}/recipes`, { name: 'Nope', template_id: 'starter:nope' });
    expect(unknown.status).toBe(404);
  });
});

describe('versions are immutable', () => {
  it('update_recipe (step_changes and whole definition) and add_column create drafts; the live version stays until a person makes the draft live', async () => {
    const s = await studioTenant(env);
    const recipe = await createRecipe(s, 'Versions', DNS_ONLY);
    const path = `${s.base}/recipes/${recipe.id}`;

    // A person makes version 1 live.
    const live = await s.t.admin('POST', `/admin/v1/recipes/${recipe.id}/go-live`, {});
    expect(live.status, live.text).toBe(200);
    expect(live.json.recipe).toMatchObject({ live_version: 1, draft_version: null });

    const { preview, result } = await twoStep(s, 'PUT', path, { step_changes: [{ op: 'add', step: { type: 'find_email' }, at: 1 }, { op: 'add', step: { type: 'formula', column_key: 'industry', formula: 'industry' } }] });
    expect(preview.preview).toMatchObject({ base_version: 1, new_version: 2 });
    expect(preview.preview.diff.map((d: { change: string }) => d.change)).toEqual(['added', 'unchanged', 'added']);
    expect(result.recipe).toMatchObject({ live_version: 1, draft_version: 2, steps_version: 2 });
    expect(result.recipe.steps).toEqual([{ type: 'find_email' }, { type: 'dns_scan' }, { type: 'formula', column_key: 'industry', formula: 'industry' }]);

    const col = await s.tool('add_column', { client_id: s.t.client.id, recipe_id: recipe.id, column_key: 'b2b', question: 'Does {company} sell to businesses?', output_type: 'boolean' });
    expect(col.isError, col.text).toBe(false);
    expect(col.json.preview).toMatchObject({ base_version: 2, new_version: 3, step_number: 4, step: { type: 'question', column_key: 'b2b', output_type: 'boolean' } });
    const colDone = await s.tool('add_column', { client_id: s.t.client.id, recipe_id: recipe.id, column_key: 'b2b', question: 'Does {company} sell to businesses?', output_type: 'boolean', confirm_token: col.json.confirm_token });
    expect(colDone.isError, colDone.text).toBe(false);
    expect(colDone.json.recipe).toMatchObject({ live_version: 1, draft_version: 3 });

    const whole = await twoStep(s, 'PUT', path, { definition: { steps: [{ type: 'dns_scan' }, { type: 'formula', column_key: 'industry', formula: 'company_size_band' }] } });
    expect(whole.preview.preview.diff.map((d: { change: string }) => d.change)).toEqual(['removed', 'unchanged', 'changed', 'removed']);
    expect(whole.result.recipe).toMatchObject({ live_version: 1, draft_version: 4 });

    // Every version is still there, exactly as written.
    const versions = await versionsOf(recipe.id);
    expect(versions.map((v) => v.version)).toEqual([1, 2, 3, 4]);
    expect(versions[0].definition).toEqual(DNS_ONLY);
    expect(versions[2].definition.steps).toHaveLength(4);

    // list_recipes: the same on both faces; live stays 1.
    const list = await s.read('list_recipes', `${s.base}/recipes`);
    expect(list.recipes).toHaveLength(1);
    expect(list.recipes[0]).toMatchObject({ id: recipe.id, name: 'Versions', live_version: 1, draft_version: 4, steps_version: 4 });

    const goLive = await s.t.admin('POST', `/admin/v1/recipes/${recipe.id}/go-live`, {});
    expect(goLive.json.recipe).toMatchObject({ live_version: 4, draft_version: null });
    const twice = await s.t.admin('POST', `/admin/v1/recipes/${recipe.id}/go-live`, {});
    expect(twice.status).toBe(409);
    const made = await env.services.db.select().from(auditLog).where(and(eq(auditLog.orgId, s.t.org.id), eq(auditLog.action, 'recipe.made_live')));
    expect(made.map((a) => a.actor)).toEqual(['admin', 'admin']);
  });

  it('step_changes that cannot apply are recipe_invalid naming the change; a change that changes nothing gets no token', async () => {
    const s = await studioTenant(env);
    const recipe = await createRecipe(s, 'Patches', DNS_ONLY);
    const path = `${s.base}/recipes/${recipe.id}`;
    const bad = await s.rest('PUT', path, { step_changes: [{ op: 'remove', at: 5 }, { op: 'set', at: 1, fields: { type: 'find_email' } }] });
    expect(bad.status).toBe(422);
    expect(bad.json.problems).toEqual([
      'Change 1 (remove): there is no step 5; the recipe has 1 step at that point.',
      "Change 2 (set): a step's type cannot be set; use replace with the whole new step.",
    ]);
    const invalid = await s.rest('PUT', path, { step_changes: [{ op: 'add', step: { type: 'formula', column_key: 'x', formula: 'nope' } }] });
    expect(invalid.json.problems).toEqual(['Step 2 (formula): unknown formula "nope"; find_formulas lists them.']);
    const same = await s.rest('PUT', path, { definition: DNS_ONLY });
    expect(same.status).toBe(200);
    expect(same.json.confirm_token).toBeNull();
    expect(same.json.blocked_by).toBe('conflict');
    const neither = await s.rest('PUT', path, {});
    expect(neither.status).toBe(400);
    expect((await versionsOf(recipe.id)).length).toBe(1);
  });

  it('a change between preview and confirm makes the confirm preview_stale with a fresh preview; the first draft is never overwritten', async () => {
    const s = await studioTenant(env);
    const recipe = await createRecipe(s, 'Stale', DNS_ONLY);
    const path = `${s.base}/recipes/${recipe.id}`;
    const body = { step_changes: [{ op: 'add', step: { type: 'find_email' } }] };
    const p = await s.rest('PUT', path, body);
    await twoStep(s, 'POST', `${s.base}/columns`, { recipe_id: recipe.id, column_key: 'seniority', formula: 'seniority_from_title' });
    const c = await s.rest('PUT', path, { ...body, confirm_token: p.json.confirm_token });
    expect(c.status).toBe(409);
    expect(c.json.error.code).toBe('preview_stale');
    expect(c.json.preview.base_version).toBe(2);
    expect(c.json.confirm_token).toBeTruthy();
    const ok = await s.rest('PUT', path, { ...body, confirm_token: c.json.confirm_token });
    expect(ok.status, ok.text).toBe(200);
    const versions = await versionsOf(recipe.id);
    expect(versions.map((v) => v.definition.steps.length)).toEqual([1, 2, 3]);
  });

  it('add_column refuses a column key that is a fixed field or already used, and needs exactly one of formula or question', async () => {
    const s = await studioTenant(env);
    const recipe = await createRecipe(s, 'Columns', RICH);
    const base = { recipe_id: recipe.id };
    const fixed = await s.rest('POST', `${s.base}/columns`, { ...base, column_key: 'company', formula: 'industry' });
    expect(fixed.json.problems).toEqual(['Step 4 (formula): column_key "company" is a fixed pool field; choose another name.']);
    const dup = await s.rest('POST', `${s.base}/columns`, { ...base, column_key: 'seniority', formula: 'industry' });
    expect(dup.json.problems).toEqual(['Step 4 (formula): column_key "seniority" is already written by step 1; each column key may appear once.']);
    const both = await s.rest('POST', `${s.base}/columns`, { ...base, column_key: 'z', formula: 'industry', question: 'why?' });
    expect(both.status).toBe(400);
    const p = await s.rest('POST', `${s.base}/columns`, { ...base, column_key: 'industry', formula: 'industry' });
    expect(p.json.preview.formula).toMatchObject({ ref: 'industry', credit_cost: 1 });
  });
});

describe('concurrent confirms', () => {
  it('of one token make one version; of two previews of the same base, one wins and the other is stale', async () => {
    const s = await studioTenant(env);
    const recipe = await createRecipe(s, 'Concurrent', DNS_ONLY);
    const path = `${s.base}/recipes/${recipe.id}`;
    const body = { step_changes: [{ op: 'add', step: { type: 'find_email' } }] };
    const p = await s.rest('PUT', path, body);
    const results = await Promise.all(Array.from({ length: 5 }, () => s.rest('PUT', path, { ...body, confirm_token: p.json.confirm_token })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200)) expect(r.json.error.code).toBe('confirm_token_used');
    expect((await versionsOf(recipe.id)).map((v) => v.version)).toEqual([1, 2]);

    const a = await s.rest('PUT', path, { step_changes: [{ op: 'remove', at: 1 }] });
    const b = await s.rest('PUT', path, { step_changes: [{ op: 'add', step: { type: 'signals', kinds: ['news'] } }] });
    const [ra, rb] = await Promise.all([
      s.rest('PUT', path, { step_changes: [{ op: 'remove', at: 1 }], confirm_token: a.json.confirm_token }),
      s.rest('PUT', path, { step_changes: [{ op: 'add', step: { type: 'signals', kinds: ['news'] } }], confirm_token: b.json.confirm_token }),
    ]);
    expect([ra.status, rb.status].sort()).toEqual([200, 409]);
    expect([ra, rb].find((r) => r.status === 409)!.json.error.code).toBe('preview_stale');
    expect((await versionsOf(recipe.id)).map((v) => v.version)).toEqual([1, 2, 3]);
  });
});

describe('makeDraftLive (the plan-step verb)', () => {
  it('with requireDryRun makes live only a version whose dry run passed; an older version can be made live again, keeping the draft', async () => {
    const s = await studioTenant(env);
    await addPoolLeads(env, s.t, [{ title: 'CEO', domain: 'plan.example.com' }]);
    const recipe = await createRecipe(s, 'Plan', { steps: [{ type: 'formula', column_key: 'seniority', formula: 'seniority_from_title' }] });
    const q = { orgId: s.t.org.id, clientId: s.t.client.id, recipeId: recipe.id, actor: 'system', now: env.clock.now(), requireDryRun: true };
    await expect(env.services.db.transaction((tx) => makeDraftLive(tx, q))).rejects.toMatchObject({ code: 'dry_run_failed' });
    expect((await env.services.db.select().from(recipes).where(eq(recipes.id, recipe.id)))[0].liveVersion).toBeNull();
    await twoStep(s, 'POST', `${s.base}/recipes/${recipe.id}/preview`, {});
    const row = await env.services.db.transaction((tx) => makeDraftLive(tx, q));
    expect(row).toMatchObject({ liveVersion: 1, draftVersion: null });

    await twoStep(s, 'PUT', `${s.base}/recipes/${recipe.id}`, { step_changes: [{ op: 'add', step: { type: 'dns_scan' } }] });
    const v2 = await s.t.admin('POST', `/admin/v1/recipes/${recipe.id}/go-live`, {});
    expect(v2.json.recipe).toMatchObject({ live_version: 2, draft_version: null });
    await twoStep(s, 'PUT', `${s.base}/recipes/${recipe.id}`, { step_changes: [{ op: 'add', step: { type: 'find_email' } }] });
    const back = await s.t.admin('POST', `/admin/v1/recipes/${recipe.id}/go-live`, { version: 1 });
    expect(back.json.recipe).toMatchObject({ live_version: 1, draft_version: 3 });
    const missing = await s.t.admin('POST', `/admin/v1/recipes/${recipe.id}/go-live`, { version: 9 });
    expect(missing.status).toBe(404);
    const unknown = await s.t.admin('POST', `/admin/v1/recipes/00000000-0000-4000-8000-000000000000/go-live`, {});
    expect(unknown.status).toBe(404);
  });
});

describe('copy_recipe and save_recipe_as_template', () => {
  it('copies the newest version as a draft (same client or another), saves templates, and lists them beside the starters', async () => {
    const s = await studioTenant(env);
    const other = await s.t.addClient('Client B');
    const recipe = await createRecipe(s, 'Original', RICH);
    await twoStep(s, 'PUT', `${s.base}/recipes/${recipe.id}`, { step_changes: [{ op: 'remove', at: 2 }] });

    const same = await s.rest('POST', `${s.base}/recipes/${recipe.id}/copy`, {});
    expect(same.status, same.text).toBe(201);
    expect(same.json.recipe).toMatchObject({ name: 'Original (copy)', live_version: null, draft_version: 1, client_id: s.t.client.id });
    expect(same.json.copied_from).toEqual({ recipe_id: recipe.id, version: 2 });
    expect(same.json.recipe.steps).toHaveLength(2);

    const moved = await s.tool('copy_recipe', { client_id: s.t.client.id, recipe_id: recipe.id, to_client_id: other.id });
    expect(moved.isError, moved.text).toBe(false);
    expect(moved.json.recipe).toMatchObject({ name: 'Original', client_id: other.id, draft_version: 1 });
    const taken = await s.rest('POST', `${s.base}/recipes/${recipe.id}/copy`, { name: 'Original', to_client_id: other.id });
    expect(taken.status).toBe(409);
    expect(taken.json.recipe.id).toBe(moved.json.recipe.id);

    const saved = await s.tool('save_recipe_as_template', { client_id: s.t.client.id, recipe_id: recipe.id, name: 'Our seniority + DNS', description: 'what we run for SaaS clients' });
    expect(saved.isError, saved.text).toBe(false);
    expect(saved.json.template).toMatchObject({ name: 'Our seniority + DNS', source: 'agency', steps: [RICH.steps[0], RICH.steps[2]] });
    const dup = await s.rest('POST', `${s.base}/recipes/${recipe.id}/template`, { name: 'our seniority + dns' });
    expect(dup.status).toBe(409);
    const list = await readBoth(s, 'list_recipe_templates', '/v1/agency/recipe-templates');
    expect(list.templates.filter((t: { source: string }) => t.source === 'agency').map((t: { name: string }) => t.name)).toEqual(['Our seniority + DNS']);
    // A recipe from the agency's template.
    const { result } = await twoStep(s, 'POST', `/v1/agency/clients/${other.id}/recipes`, { name: 'From our template', template_id: saved.json.template.id });
    expect(result.recipe.steps).toEqual([RICH.steps[0], RICH.steps[2]]);
  });
});

describe('preview_recipe', () => {
  it('dry-runs every step on at most 10 leads, writes nothing and costs 0; confirming records the passed dry run', async () => {
    const s = await studioTenant(env);
    await env.services.db.update(organizations).set({ credits: 50 }).where(eq(organizations.id, s.t.org.id));
    const leads = await addPoolLeads(env, s.t, [
      ...Array.from({ length: 11 }, (_, i) => ({ title: i % 2 ? 'VP Sales' : 'Engineer', domain: `acme${i}.example.com`, company: `Acme ${i}` })),
    ]);
    const waiting = await addPoolLeads(env, s.t, [{ email: null, status: 'waiting_for_email' as const, firstName: 'Ann', lastName: 'Lee', domain: 'wait.example.com', company: 'Wait Co' }]);
    const recipe = await createRecipe(s, 'Dry', {
      steps: [
        { type: 'formula', column_key: 'seniority', formula: 'seniority_from_title' },
        { type: 'formula', column_key: 'size', formula: 'company_size_band' },
        { type: 'find_email' },
        { type: 'dns_scan' },
        { type: 'signals', kinds: ['funding', 'news'] },
      ],
    });
    const path = `${s.base}/recipes/${recipe.id}/preview`;
    const snapshot = async () => ({
      leads: await env.services.db.select().from(poolLeads).where(eq(poolLeads.orgId, s.t.org.id)).orderBy(poolLeads.id),
      columns: await env.services.db.select().from(poolColumns).where(eq(poolColumns.orgId, s.t.org.id)),
      calls: await env.services.db.select().from(enrichmentCalls).where(eq(enrichmentCalls.orgId, s.t.org.id)),
      ledger: await env.services.db.select().from(creditLedger).where(eq(creditLedger.orgId, s.t.org.id)),
      credits: (await env.services.db.select().from(organizations).where(eq(organizations.id, s.t.org.id)))[0].credits,
    });
    const before = await snapshot();

    const rest = await s.rest('POST', path, {});
    expect(rest.status, rest.text).toBe(200);
    const pv = rest.json.preview;
    expect(rest.json.credits).toBe(0);
    expect(pv).toMatchObject({ version: 1, version_kind: 'draft', failed: 0, passed: true });
    expect(pv.leads).toHaveLength(10);
    expect(pv.leads.map((l: { lead_id: string }) => l.lead_id)).toEqual(leads.slice(0, 10).map((l) => l.id));
    const first = pv.leads[0].steps;
    expect(first[0]).toMatchObject({ step: 1, column_key: 'seniority', outcome: 'written', credits: 0 });
    expect(first[2]).toMatchObject({ step: 3, type: 'find_email', outcome: 'has_email', credits: 0 });
    expect(first[3]).toMatchObject({ step: 4, type: 'dns_scan', outcome: 'written' });
    expect(pv.credits_if_run).toBe(pv.leads.reduce((a: number, l: { credits: number }) => a + l.credits, 0));
    expect(pv.steps.map((st: { counts: Record<string, number> }) => Object.values(st.counts).reduce((a, b) => a + b, 0))).toEqual([10, 10, 10, 10, 10]);

    const viaTool = await s.tool('preview_recipe', { client_id: s.t.client.id, recipe_id: recipe.id });
    expect(viaTool.isError, viaTool.text).toBe(false);
    expect(viaTool.json.preview).toEqual(pv);

    // Named leads: the waiting one is eligible for find_email (1 credit at most), nothing is called.
    const named = await s.rest('POST', path, { lead_ids: [waiting[0].id, leads[10].id] });
    expect(named.json.preview.leads.map((l: { lead_id: string }) => l.lead_id)).toEqual([waiting[0].id, leads[10].id]);
    expect(named.json.preview.leads[0].steps[2]).toMatchObject({ outcome: 'eligible', credits: 1 });
    const tooMany = await s.rest('POST', path, { lead_ids: leads.map((l) => l.id) });
    expect(tooMany.status).toBe(400);

    const confirmed = await s.rest('POST', path, { confirm_token: rest.json.confirm_token });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.json.dry_run).toMatchObject({ recipe_id: recipe.id, version: 1, passed: true, leads: 10 });
    const used = await s.rest('POST', path, { confirm_token: rest.json.confirm_token });
    expect(used.json.error.code).toBe('confirm_token_used');

    // Nothing written, nothing charged, not even the enrichment port's call log.
    const after = await snapshot();
    expect(after).toEqual(before);
    const passed = await env.services.db.select().from(auditLog).where(and(eq(auditLog.orgId, s.t.org.id), eq(auditLog.action, 'recipe.dry_run_passed')));
    expect(passed).toHaveLength(1);
    expect(passed[0].credits).toBe(0);
    expect(passed[0].detail).toMatchObject({ version: 1 });
  });

  it('a failing step blocks the confirm (dry_run_failed); an empty pool too; version live without one is 409', async () => {
    const s = await studioTenant(env);
    const recipe = await createRecipe(s, 'Empty pool', DNS_ONLY);
    const path = `${s.base}/recipes/${recipe.id}/preview`;
    const empty = await s.rest('POST', path, {});
    expect(empty.status).toBe(200);
    expect(empty.json.confirm_token).toBeNull();
    expect(empty.json.blocked_by).toBe('dry_run_failed');
    const live = await s.rest('POST', path, { version: 'live' });
    expect(live.status).toBe(409);

    // A recipe naming an own formula that was deleted after it was saved: the cell fails.
    await addPoolLeads(env, s.t, [{ title: 'CEO', domain: 'x.example.com' }]);
    const [{ id: formulaId }] = await env.services.db
      .insert((await import('../../schema')).formulas)
      .values({ orgId: s.t.org.id, name: 'Mine', kind: 'expression', spec: { expression: 'upper(title)' }, inputs: ['title'], outputType: 'text', createdBy: 'test' })
      .returning();
    const r2 = await createRecipe(s, 'Own formula', { steps: [{ type: 'formula', column_key: 'mine', formula: formulaId }] });
    await env.services.db.delete((await import('../../schema')).formulas).where(eq((await import('../../schema')).formulas.id, formulaId));
    const failed = await s.rest('POST', `${s.base}/recipes/${r2.id}/preview`, {});
    expect(failed.status, failed.text).toBe(200);
    expect(failed.json.blocked_by).toBe('dry_run_failed');
    expect(failed.json.preview.failed).toBe(1);
    expect(failed.json.preview.leads[0].steps[0].outcome).toBe('failed');
  });
});

describe('tenant isolation', () => {
  it("another organization's recipe, client or template is 404 on every recipe tool; the same client's recipe under another client too", async () => {
    const owner = await studioTenant(env);
    const intruder = await studioTenant(env);
    const recipe = await createRecipe(owner, 'Private', DNS_ONLY);
    const saved = await owner.rest('POST', `${owner.base}/recipes/${recipe.id}/template`, { name: 'Private template' });
    expect(saved.status).toBe(201);
    const foreign = `/v1/agency/clients/${owner.t.client.id}`;
    const own = intruder.base;
    const calls: Array<[string, string, Record<string, unknown>?]> = [
      ['GET', `${foreign}/recipes`],
      ['POST', `${foreign}/recipes`, { name: 'x', definition: DNS_ONLY }],
      ['PUT', `${own}/recipes/${recipe.id}`, { definition: { steps: [{ type: 'find_email' }] } }],
      ['POST', `${own}/columns`, { recipe_id: recipe.id, column_key: 'x', formula: 'industry' }],
      ['POST', `${own}/recipes/${recipe.id}/preview`, {}],
      ['POST', `${own}/recipes/${recipe.id}/copy`, {}],
      ['POST', `${own}/recipes/${recipe.id}/template`, { name: 'stolen' }],
      ['POST', `${own}/recipes`, { name: 'from stolen', template_id: saved.json.template.id }],
    ];
    for (const [method, path, body] of calls) {
      const r = await intruder.rest(method, path, body);
      expect(r.status, `${method} ${path} ${r.text}`).toBe(404);
      expect(r.json.error.code).toBe('not_found');
    }
    const copyInto = await owner.rest('POST', `${owner.base}/recipes/${recipe.id}/copy`, { to_client_id: intruder.t.client.id });
    expect(copyInto.status).toBe(404);
    // Under another client of the same organization the recipe does not exist either.
    const b = await owner.t.addClient('Client B');
    const wrongClient = await owner.rest('POST', `/v1/agency/clients/${b.id}/recipes/${recipe.id}/preview`, {});
    expect(wrongClient.status).toBe(404);
    const theirs = await readBoth(intruder, 'list_recipe_templates', '/v1/agency/recipe-templates');
    expect(theirs.templates.map((t: { name: string }) => t.name)).not.toContain('Private template');
    const viaTool = await intruder.tool('update_recipe', { client_id: intruder.t.client.id, recipe_id: recipe.id, definition: DNS_ONLY });
    expect(viaTool.text.split(':')[0]).toBe('not_found');
    expect(await env.services.db.select().from(recipeTemplates).where(eq(recipeTemplates.orgId, intruder.t.org.id))).toEqual([]);
  });
});
