// Generated from the operation table: every agency tool through MCP (and every agency route through REST) with no
// key, a bad key, a key without the tool's scope, an audit (read-only) key, a demo organization's key and another
// organization's ids. A tool added to the table without its gate or its tenant check makes this file fail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS, TOOLS } from '../../functions/agency/table';
import type { Operation } from '../../lib/agency/operation';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { objectFixtures, sampleBody } from '../helpers/route_fixtures';
import { newTenant, randomIp, request, type Tenant } from '../helpers/tenant';

const OPT_INS = ['replies.send', 'replies.approve', 'leads.read', 'reports.read', 'campaigns.read', 'agency.plans.approve'];

let env: TestEnv;
let victim: Tenant;
let attacker: Tenant;
let demo: Tenant;
let victimIds: Record<string, string>;
let attackerIds: Record<string, string>;
let demoIds: Record<string, string>;
beforeAll(async () => {
  env = await startTestEnv();
  victim = await newTenant(env, { features: { agency_tools: true, studio: true } });
  attacker = await newTenant(env, { features: { agency_tools: true, studio: true } });
  demo = await newTenant(env, { features: { agency_tools: true, studio: true } });
  await demo.admin('PATCH', `/admin/v1/orgs/${demo.org.id}`, { demo: true });
  victimIds = await objectFixtures(env, victim);
  attackerIds = await objectFixtures(env, attacker);
  demoIds = await objectFixtures(env, demo);
}, 120_000);
afterAll(() => env.close());

/** Valid arguments for a tool, its ids taken from `ids`: the route's sample body plus every *_id argument we hold. */
function argsFor(op: Operation, ids: Record<string, string>): Record<string, unknown> {
  const restPath = op.path.replace(/\{(reply|report)_id\}/, '{id}');
  const body = (sampleBody(op.method === 'GET' ? 'POST' : op.method, op.rest === 'core' ? restPath : op.path) ?? {}) as Record<string, unknown>;
  const args: Record<string, unknown> = { ...(op.method === 'GET' ? {} : body) };
  for (const name of Object.keys(op.input.shape)) if (name.endsWith('_id') && ids[name]) args[name] = ids[name];
  return args;
}

async function callTool(t: Tenant, key: string | null, op: Operation, args: Record<string, unknown>, headers: Record<string, string> = {}) {
  return request(env, 'POST', '/mcp', {
    key: null,
    body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: op.name, arguments: args } },
    headers: { accept: 'application/json, text/event-stream', ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers },
    ip: randomIp(),
  });
}
const toolCode = (r: { json: any }) => {
  const text: string = r.json.result.content[0].text;
  return r.json.result.isError ? text.slice(0, text.indexOf(':')) : 'ok';
};
const restPathOf = (op: Operation, ids: Record<string, string>) => op.path.replace(/\{(\w+)\}/g, (_, n) => ids[n]);
const agencyRoutes = () => OPERATIONS.filter((op) => op.rest === 'agency');

describe('every agency tool', () => {
  it('answers 401 without a key or with a bad one', async () => {
    for (const op of TOOLS) {
      for (const key of [null, 'svc_live_' + 'x'.repeat(43)]) {
        const r = await callTool(attacker, key, op, argsFor(op, attackerIds));
        expect(r.status, `${op.name} key=${key}`).toBe(401);
      }
    }
  });

  it("refuses a key without the tool's scope with insufficient_scope naming it", async () => {
    const apiKey = await attacker.addKey({ name: 'api key', scopes: ['*'] as never });
    const bareAgency = await attacker.addKey({ name: 'bare assistant', kind: 'agency', scopes: [] });
    for (const op of TOOLS) {
      const key = op.scope.startsWith('agency.') ? apiKey : bareAgency;
      const r = await callTool(attacker, key, op, argsFor(op, attackerIds));
      expect(toolCode(r), op.name).toBe('insufficient_scope');
      expect(r.json.result.content[0].text, op.name).toContain(op.scope);
    }
  });

  it('refuses every write tool to an audit key with read_only_key, through MCP and REST', async () => {
    const audit = await attacker.addKey({ name: 'audit', kind: 'agency', scopes: OPT_INS, read_only: true });
    for (const op of TOOLS.filter((o) => o.write && o.scope !== 'replies.send' && o.scope !== 'replies.approve')) {
      const r = await callTool(attacker, audit, op, argsFor(op, attackerIds));
      expect(toolCode(r), op.name).toBe('read_only_key');
    }
    for (const op of agencyRoutes().filter((o) => o.write)) {
      const r = await attacker.call(op.method, restPathOf(op, attackerIds), { key: audit, body: sampleBody(op.method, op.path) });
      expect([r.status, r.json.error.code], op.name).toEqual([403, 'read_only_key']);
    }
  });

  it("refuses every agency write tool in a demo organization with demo_org, through MCP and REST", async () => {
    const key = await demo.addKey({ name: 'demo assistant', kind: 'agency', scopes: OPT_INS });
    for (const op of TOOLS.filter((o) => o.write && o.scope.startsWith('agency.'))) {
      const r = await callTool(demo, key, op, argsFor(op, demoIds));
      expect(toolCode(r), op.name).toBe('demo_org');
    }
    for (const op of agencyRoutes().filter((o) => o.write)) {
      const r = await demo.call(op.method, restPathOf(op, demoIds), { key, body: sampleBody(op.method, op.path) });
      expect([r.status, r.json.error.code], op.name).toEqual([403, 'demo_org']);
    }
  });

  it("answers not_found for another organization's ids, and never touches them", async () => {
    const key = await attacker.addKey({ name: 'attacker assistant', kind: 'agency', scopes: OPT_INS, autonomy_level: 3 });
    const addressed = TOOLS.filter((op) => Object.keys(op.input.shape).some((n) => n.endsWith('_id') && victimIds[n]));
    expect(addressed.length).toBeGreaterThanOrEqual(10);
    for (const op of addressed) {
      const r = await callTool(attacker, key, op, argsFor(op, victimIds));
      expect(toolCode(r), `${op.name} ${r.text.slice(0, 200)}`).toBe('not_found');
    }
  });
});
