// The sequence tools (get_sequence, update_sequence, preview_sequence, get_sequence_preview) on both faces: versions
// and their audit rows, the same steps again adding nothing, if_version conflicts, template checks naming the step
// and field, previews for sample leads with missing values, the stored last preview going stale, tenant isolation,
// and concurrent updates each getting their own version.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placeholdersOf, renderTemplate } from '../../lib/sequences/render';
import { auditLog, domainRules, poolLeads, sequencePreviews, sequenceVersions } from '../../schema';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { mcpClient, toolCaller } from '../helpers/mcp';
import { newTenant } from '../helpers/tenant';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

let serial = 0;

async function agency() {
  const t = await newTenant(env, { features: { agency_tools: true, studio: true } });
  const key = await t.addKey({ name: 'assistant', kind: 'agency', scopes: [], rate_limit_per_minute: 1000 });
  const mcp = await mcpClient(env, key, { ip: t.ip });
  const rest = (method: string, path: string, body?: unknown) => t.call(method, path, { key, body });
  const tool = toolCaller(mcp);
  const base = `/v1/agency/clients/${t.client.id}/sequence`;
  return { t, key, rest, tool, base };
}
type Agency = Awaited<ReturnType<typeof agency>>;

type LeadInput = Partial<typeof poolLeads.$inferInsert>;
/** Pool leads in the order given, each created a second after the one before (the last is the newest). */
async function addLeads(a: Agency, list: LeadInput[], clientId = a.t.client.id) {
  const rows = [];
  for (const l of list) {
    const n = serial++;
    const [row] = await env.services.db
      .insert(poolLeads)
      .values({ orgId: a.t.org.id, clientId, email: `lead${n}@seq${n}.example.org`, status: 'new' as const, createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, n)), ...l })
      .returning();
    rows.push(row);
  }
  return rows;
}

const STEPS = [
  { subject: 'Quick idea for {{company}}', body: 'Hi {{first_name}},\n\n{{hook}}\n\n{{sender.name}}', delay_days: 0 },
  { body: 'Hi {{ first_name }}, any thoughts? ({{custom.team_size}} people)', delay_days: 3 },
  { subject: 'Last note', body: 'Closing the loop, {{first_name}}.', delay_days: 4, condition: 'no_positive_reply' },
];

async function save(a: Agency, steps: unknown = STEPS, extra: Record<string, unknown> = {}) {
  const r = await a.rest('PUT', a.base, { steps, ...extra });
  expect(r.status, r.text).toBe(200);
  return r.json as { sequence: any; updated: boolean };
}
const versionsOf = (a: Agency) => env.services.db.select().from(sequenceVersions).where(eq(sequenceVersions.clientId, a.t.client.id));
const auditOf = (a: Agency) => env.services.db.select().from(auditLog).where(and(eq(auditLog.orgId, a.t.org.id), eq(auditLog.action, 'sequence.updated')));

describe('get_sequence and update_sequence', () => {
  it('answers version 0 with no steps before any save, on both faces', async () => {
    const a = await agency();
    const rest = await a.rest('GET', a.base);
    expect(rest.status, rest.text).toBe(200);
    expect(rest.json).toEqual({ sequence: { client_id: a.t.client.id, version: 0, steps: [], updated_at: null, updated_by: null } });
    const mcp = await a.tool('get_sequence', { client_id: a.t.client.id });
    expect(mcp.isError, mcp.text).toBe(false);
    expect(mcp.json).toEqual(rest.json);
  });

  it('saves versions with defaults filled in and one audit row each; the same steps again add nothing', async () => {
    const a = await agency();
    const first = await save(a);
    expect(first.updated).toBe(true);
    expect(first.sequence).toMatchObject({ client_id: a.t.client.id, version: 1, updated_by: 'key:assistant' });
    expect(first.sequence.steps).toEqual([
      { subject: 'Quick idea for {{company}}', body: STEPS[0].body, delay_days: 0, condition: 'always' },
      { subject: null, body: STEPS[1].body, delay_days: 3, condition: 'no_reply' },
      { subject: 'Last note', body: STEPS[2].body, delay_days: 4, condition: 'no_positive_reply' },
    ]);
    const again = await save(a);
    expect(again).toEqual({ sequence: first.sequence, updated: false });
    // The defaults written out are the same sequence too.
    const explicit = await a.tool('update_sequence', { client_id: a.t.client.id, steps: first.sequence.steps });
    expect(explicit.isError, explicit.text).toBe(false);
    expect(explicit.json.updated).toBe(false);
    const viaMcp = await a.tool('update_sequence', { client_id: a.t.client.id, steps: STEPS.slice(0, 2), if_version: 1 });
    expect(viaMcp.isError, viaMcp.text).toBe(false);
    expect(viaMcp.json.sequence).toMatchObject({ version: 2, updated_by: 'mcp:assistant' });
    expect(viaMcp.json.sequence.steps).toHaveLength(2);
    expect((await versionsOf(a)).map((v) => v.version).sort()).toEqual([1, 2]);
    const audit = await auditOf(a);
    expect(audit).toHaveLength(2);
    expect(audit.map((r) => r.detail)).toEqual(expect.arrayContaining([expect.objectContaining({ version: 1, previous_version: 0 }), expect.objectContaining({ version: 2, previous_version: 1 })]));
    const read = await a.rest('GET', a.base);
    expect(read.json.sequence).toEqual(viaMcp.json.sequence);
  });

  it('refuses a stale if_version with 409 conflict carrying the current sequence, and changes nothing', async () => {
    const a = await agency();
    const first = await save(a, STEPS, { if_version: 0 });
    expect(first.sequence.version).toBe(1);
    const stale = await a.rest('PUT', a.base, { steps: STEPS.slice(0, 1), if_version: 0 });
    expect(stale.status).toBe(409);
    expect(stale.json.error.code).toBe('conflict');
    expect(stale.json.error.message).toContain('version 1');
    expect(stale.json.sequence).toEqual(first.sequence);
    const viaMcp = await a.tool('update_sequence', { client_id: a.t.client.id, steps: STEPS.slice(0, 1), if_version: 5 });
    expect(viaMcp.isError).toBe(true);
    expect(viaMcp.text).toMatch(/^conflict/);
    expect(viaMcp.json.sequence.version).toBe(1);
    expect(await versionsOf(a)).toHaveLength(1);
    expect(await auditOf(a)).toHaveLength(1);
  });

  it('refuses bad templates with 400 naming the step and field, saving nothing', async () => {
    const a = await agency();
    const ok = { subject: 'Hello {{first_name}}', body: 'Body', delay_days: 0 };
    const cases: Array<[unknown, string, RegExp]> = [
      [[ok, { body: 'Hi {{frist_name}}', delay_days: 2 }], 'steps.1.body', /frist_name/],
      [[{ ...ok, subject: 'Hi {{ceo}}' }], 'steps.0.subject', /\{\{ceo\}\}/],
      [[{ ...ok, subject: null }], 'steps.0.subject', /first mail needs a subject/],
      [[{ ...ok, delay_days: 2 }], 'steps.0.delay_days', /must be 0/],
      [[ok, { body: 'x', delay_days: 61 }], 'steps.1.delay_days', /.+/],
      [[ok, { body: '', delay_days: 1 }], 'steps.1.body', /.+/],
      [[ok, { body: 'x'.repeat(5001), delay_days: 1 }], 'steps.1.body', /.+/],
      [[{ ...ok, subject: 's'.repeat(201) }], 'steps.0.subject', /.+/],
      [[ok, { body: 'Hi {{first_name}', delay_days: 1 }], 'steps.1.body', /without its/],
      [[ok, { body: 'x', delay_days: 1, condition: 'sometimes' }], 'steps.1.condition', /.+/],
      [[{ ...ok, condition: 'no_reply' }], 'steps.0.condition', /always/],
      [[], 'steps', /.+/],
      [Array.from({ length: 11 }, (_, i) => ({ ...ok, delay_days: i === 0 ? 0 : 1 })), 'steps', /.+/],
    ];
    for (const [steps, path, message] of cases) {
      const r = await a.rest('PUT', a.base, { steps });
      expect(r.status, `${path}: ${r.text}`).toBe(400);
      expect(r.json.error.code).toBe('validation_error');
      expect(r.json.error.details.map((d: any) => d.path), r.text).toContain(path);
      expect(r.json.error.message, r.text).toMatch(message);
    }
    const viaMcp = await a.tool('update_sequence', { client_id: a.t.client.id, steps: [ok, { body: 'Hi {{nickname}}', delay_days: 1 }] });
    expect(viaMcp.isError).toBe(true);
    expect(viaMcp.text).toMatch(/^validation_error: steps\.1\.body: step 2: unknown placeholder \{\{nickname\}\}/);
    expect(await versionsOf(a)).toHaveLength(0);
    // Custom columns and the sender are known names.
    const fine = await save(a, [{ ...ok, body: '{{custom.team_size}} {{sender.name}} {{full_name}}' }]);
    expect(fine.updated).toBe(true);
  });

  it("answers 404 for another organization's client on every tool, writing nothing there", async () => {
    const a = await agency();
    const b = await agency();
    await save(b);
    const other = `/v1/agency/clients/${b.t.client.id}/sequence`;
    expect((await a.rest('GET', other)).status).toBe(404);
    expect((await a.rest('PUT', other, { steps: STEPS })).status).toBe(404);
    expect((await a.rest('POST', `${other}/preview`, {})).status).toBe(404);
    expect((await a.rest('GET', `${other}/preview`)).status).toBe(404);
    const viaMcp = await a.tool('get_sequence', { client_id: b.t.client.id });
    expect(viaMcp.isError).toBe(true);
    expect(viaMcp.text).toMatch(/^not_found/);
    expect(await versionsOf(b)).toHaveLength(1);
  });

  it('gives concurrent updates with different steps distinct versions', async () => {
    const a = await agency();
    const variants = [0, 1, 2, 3].map((i) => [{ subject: `Variant ${i}`, body: `Body ${i} for {{company}}`, delay_days: 0 }]);
    const results = await Promise.all(variants.map((steps) => a.rest('PUT', a.base, { steps })));
    for (const r of results) expect(r.status, r.text).toBe(200);
    const versions = results.map((r) => r.json.sequence.version).sort();
    expect(versions).toEqual([1, 2, 3, 4]);
    expect((await versionsOf(a)).map((v) => v.steps[0].subject).sort()).toEqual(['Variant 0', 'Variant 1', 'Variant 2', 'Variant 3']);
    expect(await auditOf(a)).toHaveLength(4);
  });
});

describe('preview_sequence and get_sequence_preview', () => {
  it('renders every step for the 3 newest leads with an email, marking missing values, and stores it without an audit row', async () => {
    const a = await agency();
    await save(a);
    await env.services.db.insert(domainRules).values({ clientId: a.t.client.id, orgId: a.t.org.id, senderNames: ['Anna Berg', 'Ben Ode'] });
    const [oldest, noHook, , full] = await addLeads(a, [
      { firstName: 'Old', company: 'Oldco', hook: 'old hook', custom: { team_size: 4 } },
      { firstName: 'Nora', company: 'Hookless', custom: {} },
      { email: null, firstName: 'Nomail', company: 'Nomail Inc', personKey: `nomail${serial}` },
      { firstName: 'Mia', company: 'Acme', hook: 'Saw your launch.', custom: { team_size: 12 } },
    ]);
    const [removed] = await addLeads(a, [{ firstName: 'Gone', company: 'Gone', status: 'removed' }]);
    const before = await env.services.db.select().from(auditLog).where(eq(auditLog.orgId, a.t.org.id));
    const r = await a.rest('POST', `${a.base}/preview`, {});
    expect(r.status, r.text).toBe(200);
    const p = r.json.preview;
    expect(p).toMatchObject({ version: 1, sender_name: 'Anna Berg' });
    // Newest first; the email-less and the removed lead are left out.
    expect(p.leads.map((l: any) => l.lead_id)).toEqual([full.id, noHook.id, oldest.id]);
    expect(p.leads.map((l: any) => l.lead_id)).not.toContain(removed.id);
    const [mia, nora, old] = p.leads;
    expect(mia.email).toBe(full.email);
    expect(mia.mails).toEqual([
      { step: 1, send_day: 0, subject: 'Quick idea for Acme', body: 'Hi Mia,\n\nSaw your launch.\n\nAnna Berg', missing: [] },
      { step: 2, send_day: 3, subject: null, body: 'Hi Mia, any thoughts? (12 people)', missing: [] },
      { step: 3, send_day: 7, subject: 'Last note', body: 'Closing the loop, Mia.', missing: [] },
    ]);
    expect(nora.mails[0]).toMatchObject({ body: 'Hi Nora,\n\n[[hook?]]\n\nAnna Berg', missing: ['hook'] });
    expect(nora.mails[1]).toMatchObject({ body: 'Hi Nora, any thoughts? ([[custom.team_size?]] people)', missing: ['custom.team_size'] });
    expect(nora.mails[2].missing).toEqual([]);
    expect(old.mails[1].body).toContain('(4 people)');
    const stored = await env.services.db.select().from(sequencePreviews).where(eq(sequencePreviews.clientId, a.t.client.id));
    expect(stored).toHaveLength(1);
    expect(stored[0].body).toEqual(p);
    expect(stored[0].createdAt.toISOString()).toBe(p.created_at);
    expect(await env.services.db.select().from(auditLog).where(eq(auditLog.orgId, a.t.org.id))).toHaveLength(before.length);
  });

  it('renders the named leads in their order over MCP, signing with the client name without sender names', async () => {
    const a = await agency();
    await save(a);
    const [x, y] = await addLeads(a, [{ firstName: null, company: null, hook: 'h' }, { firstName: 'Yara', company: 'Yco', hook: 'h2' }]);
    const r = await a.tool('preview_sequence', { client_id: a.t.client.id, lead_ids: [x.id, y.id] });
    expect(r.isError, r.text).toBe(false);
    expect(r.json.preview.sender_name).toBe(a.t.client.name);
    expect(r.json.preview.leads.map((l: any) => l.lead_id)).toEqual([x.id, y.id]);
    const first = r.json.preview.leads[0].mails[0];
    expect(first.subject).toBe('Quick idea for [[company?]]');
    expect(first.missing).toEqual(['company', 'first_name']);
    expect(first.body).toContain(a.t.client.name);
  });

  it('refuses 4 lead ids, a duplicate, another client\'s lead and a client without a sequence', async () => {
    const a = await agency();
    const leads = await addLeads(a, [{}, {}, {}, {}]);
    const none = await a.rest('POST', `${a.base}/preview`, {});
    expect(none.status).toBe(409);
    expect(none.json.error.message).toContain('update_sequence');
    await save(a);
    const four = await a.rest('POST', `${a.base}/preview`, { lead_ids: leads.map((l) => l.id) });
    expect(four.status).toBe(400);
    expect(four.json.error.details[0].path).toBe('lead_ids');
    const dup = await a.rest('POST', `${a.base}/preview`, { lead_ids: [leads[0].id, leads[0].id] });
    expect(dup.status).toBe(400);
    const otherClient = await a.t.addClient('Client B');
    const [theirs] = await addLeads(a, [{}], otherClient.id);
    const foreign = await a.rest('POST', `${a.base}/preview`, { lead_ids: [leads[0].id, theirs.id] });
    expect(foreign.status).toBe(404);
    expect(foreign.json.error.message).toContain(theirs.id);
    const viaMcp = await a.tool('preview_sequence', { client_id: a.t.client.id, lead_ids: [theirs.id] });
    expect(viaMcp.isError).toBe(true);
    expect(viaMcp.text).toMatch(/^not_found/);
    expect(await env.services.db.select().from(sequencePreviews).where(eq(sequencePreviews.clientId, a.t.client.id))).toHaveLength(0);
  });

  it('get_sequence_preview: null before any, then the stored one, then stale after an update; replaced by the next preview', async () => {
    const a = await agency();
    const empty = await a.rest('GET', `${a.base}/preview`);
    expect(empty.status, empty.text).toBe(200);
    expect(empty.json).toEqual({ preview: null, stale: false });
    await save(a);
    await addLeads(a, [{ firstName: 'Ann', company: 'Aco', hook: 'h' }]);
    const made = await a.rest('POST', `${a.base}/preview`, {});
    const stored = await a.rest('GET', `${a.base}/preview`);
    expect(stored.json).toEqual({ preview: made.json.preview, stale: false });
    const viaMcp = await a.tool('get_sequence_preview', { client_id: a.t.client.id });
    expect(viaMcp.json).toEqual(stored.json);
    await save(a, STEPS.slice(0, 1));
    const stale = await a.rest('GET', `${a.base}/preview`);
    expect(stale.json.stale).toBe(true);
    expect(stale.json.preview.version).toBe(1);
    const fresh = await a.rest('POST', `${a.base}/preview`, {});
    expect(fresh.json.preview.version).toBe(2);
    expect(fresh.json.preview.leads[0].mails).toHaveLength(1);
    const after = await a.rest('GET', `${a.base}/preview`);
    expect(after.json).toEqual({ preview: fresh.json.preview, stale: false });
    expect(await env.services.db.select().from(sequencePreviews).where(eq(sequencePreviews.clientId, a.t.client.id))).toHaveLength(1);
  });
});

describe('renderTemplate', () => {
  it('fills placeholders as plain text, never twice, and marks each missing name once', () => {
    const r = renderTemplate('{{a}} {{ b }} {{a}} {{c}} {{d}}', { a: '{{b}}', b: 'B', c: '  ', d: null });
    expect(r.text).toBe('{{b}} B {{b}} [[c?]] [[d?]]');
    expect(r.missing).toEqual(['c', 'd']);
    expect(renderTemplate('{{constructor}} {{__proto__}}', {}).missing).toEqual(['constructor', '__proto__']);
    expect(placeholdersOf('{{x}} {{ y }} {{x}}')).toEqual(['x', 'y']);
  });
});
