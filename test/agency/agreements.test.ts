// get_agreements and set_agreement on both faces: replacement of the same kind (custom: the same label) in one
// transaction, a repeat that changes nothing, validation naming the field, the audit row, tenant isolation.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agreements } from '../../schema';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { auditOf, studioTenant } from './pool_reads_helpers';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

const rowsOf = (clientId: string) => env.services.db.select().from(agreements).where(eq(agreements.clientId, clientId));

describe('set_agreement', () => {
  it('creates an agreement, and replaces the active one of the same kind in one step (REST and MCP)', async () => {
    const a = await studioTenant(env);
    const first = await a.rest('POST', `${a.base}/agreements`, { kind: 'meetings_per_month', target: 4, start: '2026-01-01' });
    expect(first.status, first.text).toBe(201);
    expect(first.json).toEqual({
      agreement: { id: expect.any(String), client_id: a.t.client.id, kind: 'meetings_per_month', target: 4, start: '2026-01-01', catch_up: 'spread', active: true },
      replaced: null,
    });
    const second = await a.tool('set_agreement', { client_id: a.t.client.id, kind: 'meetings_per_month', target: 6.5, start: '2026-02-01', catch_up: 'drop' });
    expect(second.isError, second.text).toBe(false);
    expect(second.json.agreement).toMatchObject({ kind: 'meetings_per_month', target: 6.5, start: '2026-02-01', catch_up: 'drop', active: true });
    expect(second.json.replaced).toEqual({ ...first.json.agreement, active: false });
    // Another kind is another agreement.
    expect((await a.rest('POST', `${a.base}/agreements`, { kind: 'new_prospects_per_workday', target: 25, start: '2026-02-02' })).status).toBe(201);
    const rows = await rowsOf(a.t.client.id);
    expect(rows.filter((r) => r.active).map((r) => [r.kind, Number(r.target)]).sort()).toEqual([
      ['meetings_per_month', 6.5],
      ['new_prospects_per_workday', 25],
    ]);
    expect(rows.find((r) => r.id === first.json.agreement.id)?.replacedAt).not.toBeNull();
    const audit = (await auditOf(env, a.t)).filter((e) => e.action === 'agreement.set');
    expect(audit.map((e) => e.actor)).toEqual(['key:assistant', 'mcp:assistant', 'key:assistant']);
    expect(audit[1].detail).toMatchObject({ replaced_id: first.json.agreement.id, catch_up: 'drop' });
  });

  it('answers a repeat of the active agreement with it (200, replaced null) and writes nothing', async () => {
    const a = await studioTenant(env);
    const body = { kind: 'replies_per_month', target: 30, start: '2026-01-01' };
    const first = await a.rest('POST', `${a.base}/agreements`, body);
    const again = await a.rest('POST', `${a.base}/agreements`, { ...body, catch_up: 'spread' });
    expect(again.status).toBe(200);
    expect(again.json).toEqual({ agreement: first.json.agreement, replaced: null });
    expect(await rowsOf(a.t.client.id)).toHaveLength(1);
    expect((await auditOf(env, a.t)).filter((e) => e.action === 'agreement.set')).toHaveLength(1);
  });

  it('leaves exactly one active agreement when replacements race', async () => {
    const a = await studioTenant(env);
    const targets = [3, 4, 5, 6, 7];
    const answers = await Promise.all(targets.map((target) => a.rest('POST', `${a.base}/agreements`, { kind: 'meetings_per_month', target, start: '2026-01-01' })));
    expect(answers.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    const rows = await rowsOf(a.t.client.id);
    expect(rows).toHaveLength(5);
    expect(rows.filter((r) => r.active)).toHaveLength(1);
    // Each replaced the one before it: a chain, nobody replaced twice.
    const replacedIds = answers.map((r) => r.json.replaced?.id).filter(Boolean);
    expect(new Set(replacedIds).size).toBe(4);
  });

  it('keeps one active custom agreement per label (any case), several labels side by side', async () => {
    const a = await studioTenant(env);
    const demo = await a.rest('POST', `${a.base}/agreements`, { kind: 'custom', label: 'Demos  held', target: 3, start: '2026-01-01' });
    expect(demo.json.agreement.label).toBe('Demos held');
    await a.rest('POST', `${a.base}/agreements`, { kind: 'custom', label: 'Case studies', target: 1, start: '2026-01-01' });
    const replaced = await a.tool('set_agreement', { client_id: a.t.client.id, kind: 'custom', label: 'demos held', target: 5, start: '2026-01-01' });
    expect(replaced.json.replaced.id).toBe(demo.json.agreement.id);
    const active = (await rowsOf(a.t.client.id)).filter((r) => r.active).map((r) => r.label).sort();
    expect(active).toEqual(['Case studies', 'demos held']);
    const listed = await a.read('get_agreements', '/v1/agency/agreements');
    expect(listed.agreements.map((x: { label?: string }) => x.label).sort()).toEqual(['Case studies', 'demos held']);
  });

  it('refuses bad input with validation_error naming the field and writes nothing', async () => {
    const a = await studioTenant(env);
    const cases: [Record<string, unknown>, string][] = [
      [{ kind: 'custom', target: 3, start: '2026-01-01' }, 'label'],
      [{ kind: 'meetings_per_month', label: 'x', target: 3, start: '2026-01-01' }, 'label'],
      [{ kind: 'meetings_per_month', target: 0, start: '2026-01-01' }, 'target'],
      [{ kind: 'meetings_per_month', target: -2, start: '2026-01-01' }, 'target'],
      [{ kind: 'meetings_per_month', target: 1.234, start: '2026-01-01' }, 'target'],
      [{ kind: 'meetings_per_month', target: 20_000, start: '2026-01-01' }, 'target'],
      [{ kind: 'meetings_per_month', target: '4', start: '2026-01-01' }, 'target'],
      [{ kind: 'meetings_per_month', target: 4, start: '2026-02-30' }, 'start'],
      [{ kind: 'meetings_per_month', target: 4, start: '01.02.2026' }, 'start'],
      [{ kind: 'meetings_per_month', target: 4, start: '2999-01-01' }, 'start'],
      [{ kind: 'meetings_per_month', target: 4, start: '1999-01-01' }, 'start'],
      [{ kind: 'weekly_calls', target: 4, start: '2026-01-01' }, 'kind'],
      [{ kind: 'meetings_per_month', target: 4, start: '2026-01-01', catch_up: 'later' }, 'catch_up'],
      [{ kind: 'meetings_per_month', target: 4, start: '2026-01-01', owner: 'me' }, 'owner'],
    ];
    for (const [body, field] of cases) {
      const r = await a.rest('POST', `${a.base}/agreements`, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.error.code).toBe('validation_error');
      expect(JSON.stringify(r.json.error), JSON.stringify(body)).toContain(field);
      const t = await a.tool('set_agreement', { client_id: a.t.client.id, ...body });
      expect(t.isError).toBe(true);
      expect(t.text.startsWith('validation_error')).toBe(true);
    }
    expect(await rowsOf(a.t.client.id)).toHaveLength(0);
  });

  it("is not_found for another organization's client on both faces, and lists nothing of another organization", async () => {
    const a = await studioTenant(env);
    const b = await studioTenant(env);
    await b.rest('POST', `${b.base}/agreements`, { kind: 'meetings_per_month', target: 4, start: '2026-01-01' });
    const r = await a.rest('POST', `${b.base}/agreements`, { kind: 'meetings_per_month', target: 9, start: '2026-01-01' });
    expect(r.status).toBe(404);
    expect(r.json.error.code).toBe('not_found');
    const t = await a.tool('set_agreement', { client_id: b.t.client.id, kind: 'meetings_per_month', target: 9, start: '2026-01-01' });
    expect(t.text.startsWith('not_found')).toBe(true);
    expect((await a.rest('GET', `/v1/agency/agreements?client_id=${b.t.client.id}`)).status).toBe(404);
    expect((await a.tool('get_agreements', { client_id: b.t.client.id })).text.startsWith('not_found')).toBe(true);
    expect((await a.rest('GET', '/v1/agency/agreements')).json.agreements).toEqual([]);
    expect((await a.tool('get_agreements')).json.agreements).toEqual([]);
    const theirs = await env.services.db.select().from(agreements).where(and(eq(agreements.clientId, b.t.client.id), eq(agreements.active, true)));
    expect(theirs.map((x) => Number(x.target))).toEqual([4]);
  });
});

describe('get_agreements', () => {
  it("lists the organization's active agreements, narrowed by client_id, the same on both faces", async () => {
    const a = await studioTenant(env);
    const other = await a.t.addClient('Client B');
    await a.rest('POST', `${a.base}/agreements`, { kind: 'meetings_per_month', target: 4, start: '2026-01-01' });
    await a.rest('POST', `${a.base}/agreements`, { kind: 'meetings_per_month', target: 5, start: '2026-01-01' });
    await a.rest('POST', `/v1/agency/clients/${other.id}/agreements`, { kind: 'replies_per_month', target: 12, start: '2026-01-01' });
    const all = (await a.rest('GET', '/v1/agency/agreements')).json;
    expect((await a.tool('get_agreements')).json).toEqual(all);
    expect(all.agreements.map((x: { target: number }) => x.target).sort()).toEqual([12, 5]);
    expect(all.agreements.every((x: { active: boolean }) => x.active)).toBe(true);
    const one = await a.read('get_agreements', '/v1/agency/agreements', { client_id: other.id });
    expect(one.agreements).toEqual([expect.objectContaining({ client_id: other.id, kind: 'replies_per_month', target: 12 })]);
  });
});
