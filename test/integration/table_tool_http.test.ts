// The production table-tool adapter (TABLE_TOOL=http) against a local stand-in of a table's webhook source
// (test/infra/fake_table.ts): one JSON object per POST with the Bearer token, 429 + Retry-After read, 5xx and
// redirects reported, a bounded wait, the SSRF rules at send time; then a whole push through it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpTableTool, parseRetryAfter } from '../../lib/ports/table_tool/http';
import type { TablePostInput } from '../../lib/ports/table_tool/port';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { startFakeTable, type FakeTable } from '../infra/fake_table';
import { studioTenant } from '../bridge/helpers';
import { runPushToEnd, seedLeads, setDestination, startPush } from '../bridge/push_helpers';

let table: FakeTable;
beforeAll(async () => {
  table = await startFakeTable({ token: 'tbl_token_abc' });
});
afterAll(() => table.close());

const input = (over: Partial<TablePostInput> = {}): TablePostInput => ({
  orgId: '00000000-0000-4000-8000-000000000001',
  pushId: '00000000-0000-4000-8000-000000000002',
  leadId: '00000000-0000-4000-8000-000000000003',
  url: table.hookUrl,
  token: 'tbl_token_abc',
  body: { lead_id: '00000000-0000-4000-8000-000000000003', email: 'ana@acme.com', first_name: 'Ana' },
  attempt: 1,
  afterThrottle: false,
  ...over,
});
const deps = { db: null as never, allowPrivate: true };

describe('the http table tool', () => {
  const tool = createHttpTableTool({ timeoutMs: 10_000 });
  // Only for the timeout case: a loaded machine must not time the other cases out.
  const impatient = createHttpTableTool({ timeoutMs: 300 });

  it('posts one JSON object with the Bearer token', async () => {
    table.reset();
    expect(await tool.post(deps, input())).toEqual({ ok: true, status: 200 });
    expect(table.requests).toHaveLength(1);
    const [req] = table.requests;
    expect(req.headers.authorization).toBe('Bearer tbl_token_abc');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.json).toEqual(input().body);
    // Without the token the table refuses: the adapter reports the status, never throws.
    expect(await tool.post(deps, input({ token: null }))).toEqual({ ok: false, throttled: false, error: 'HTTP 401' });
    expect(table.requests[1].headers.authorization).toBeUndefined();
  });

  it('reads 429 with Retry-After (seconds or a date), and without one leaves the wait to the caller', async () => {
    table.reset();
    table.setFailure({ status: 429, retryAfterSec: 7 }, 1);
    expect(await tool.post(deps, input())).toMatchObject({ ok: false, throttled: true, retryAfterSec: 7 });
    table.setFailure({ status: 429 }, 1);
    expect(await tool.post(deps, input())).toMatchObject({ ok: false, throttled: true, retryAfterSec: null });
    expect(parseRetryAfter(new Date(Date.now() + 20_000).toUTCString())).toBeGreaterThanOrEqual(19);
    expect(parseRetryAfter('999999')).toBe(3600);
    expect(parseRetryAfter('soon')).toBeNull();
  });

  it('reports 5xx, redirects (not followed), a dropped connection and a timeout as failures', async () => {
    table.reset();
    table.setFailure({ status: 500 }, 1);
    expect(await tool.post(deps, input())).toEqual({ ok: false, throttled: false, error: 'HTTP 500' });
    table.setFailure({ redirectTo: 'http://169.254.169.254/latest' }, 1);
    expect(await tool.post(deps, input())).toEqual({ ok: false, throttled: false, error: 'redirect not followed' });
    table.setFailure({ dropConnection: true }, 1);
    expect(await tool.post(deps, input())).toMatchObject({ ok: false, throttled: false });
    table.setFailure({ slowMs: 2_000 }, 1);
    expect(await impatient.post(deps, input())).toEqual({ ok: false, throttled: false, error: 'timeout after 300 ms' });
    expect(table.requests).toHaveLength(4);
  });

  it('refuses a private address at send time when the webhook rule does, without connecting', async () => {
    table.reset();
    const r = await tool.post({ ...deps, allowPrivate: false }, input());
    expect(r).toMatchObject({ ok: false, throttled: false, error: expect.stringMatching(/^destination refused: plain http/) });
    expect(table.requests).toHaveLength(0);
  });
});

describe('a push through the http table tool', () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await startTestEnv({ TABLE_TOOL: 'http' });
  });
  afterAll(() => env.close());

  it('posts every lead once, honours a 429, gives up on a row the table keeps refusing, and records why', async () => {
    expect(env.services.studio.tableTool.kind).toBe('http');
    table.reset();
    table.rows.length = 0;
    const t = await studioTenant(env);
    const ids = await seedLeads(env, t, 6);
    await setDestination(t, table.hookUrl, 'tbl_token_abc');
    const rejected = (await env.services.db.query.poolLeads.findMany({ where: (l, { inArray }) => inArray(l.id, ids) })).find((l) => l.email!.startsWith('p5@'))!;
    table.failFor(rejected.email!, 500);
    table.setFailure({ status: 429, retryAfterSec: 2 }, 1);
    const push = await startPush(t);
    const end = await runPushToEnd(env, push.id);
    expect(end).toMatchObject({ status: 'failed', sent: 5, failed: 1 });
    expect(end.lastError).toBe(`lead ${rejected.id}: HTTP 500 (after 4 tries)`);
    // (The slow answer of the timeout case above may still land a row of its own: only this push's leads count.)
    const ours = table.requests.filter((r) => ids.includes(r.json?.lead_id));
    expect(table.rows.map((r) => r.lead_id).filter((id) => ids.includes(id as string)).sort()).toEqual(ids.filter((id) => id !== rejected.id));
    expect(ours.every((r) => r.headers.authorization === 'Bearer tbl_token_abc')).toBe(true);
    // Five accepted + one 429 + four tries of the refused row.
    expect(ours).toHaveLength(10);
  });
});
