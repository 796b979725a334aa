// Property-based fuzzing of every tool of both tool servers through tools/call: arguments generated from each
// tool's published inputSchema and around it. A tool call must always be a JSON-RPC answer (never HTTP 5xx), a
// refusal must be an error result whose text starts `<code>: ` with the envelope after it (never internal_error),
// and a refused call must write nothing. `npm run fuzz` runs 10,000 cases per tool (FUZZ_RUNS).
//
// CI runs a fixed total of cases shared by the tools, CI_CASES / tools each (at least 25), not a fixed count per
// tool: at 100 a tool this file took 100 s of CI with 80 tools and grew with each of the 93 (issue 18). A fixed
// total keeps CI's time flat as tools are added; fast-check draws new cases each run, so coverage accumulates
// across runs, and the deep search is `npm run fuzz`'s job. FUZZ_RUNS, when set, is the count per tool.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agencyToolServer } from '../../functions/mcp/agency_server';
import { crmToolServer } from '../../functions/mcp/crm_server';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { objectFixtures } from '../helpers/route_fixtures';
import { newTenant, randomIp, request, type Tenant } from '../helpers/tenant';
import { aroundObject } from './schema_arbitrary';
import { writesOf } from '../helpers/writes';

let env: TestEnv;
let t: Tenant;
let ids: Record<string, string>;
const agencyKeys: string[] = [];
const crmKeys: string[] = [];

beforeAll(async () => {
  env = await startTestEnv();
  t = await newTenant(env, { features: { crm: true, agency_tools: true, studio: true } });
  ids = await objectFixtures(env, t);
  for (let i = 0; i < 6; i++) {
    agencyKeys.push(
      await t.addKey({ kind: 'agency', rate_limit_per_minute: 1000, daily_credit_limit: 10_000, scopes: ['replies.send', 'replies.approve', 'leads.read', 'reports.read', 'campaigns.read'] }),
    );
    crmKeys.push(await t.addKey({ rate_limit_per_minute: 1000, client_id: t.client.id, scopes: ['crm.read', 'crm.write'] }));
  }
}, 120_000);
afterAll(() => env.close());

const writes = (orgId: string) => writesOf(env.services.db, orgId);

/** Ids of the tenant's own objects, so generated calls often reach the tool's own rules, not just not_found. */
function withOwnIds(args: unknown): unknown {
  if (!args || typeof args !== 'object' || Array.isArray(args)) return args;
  const out: Record<string, unknown> = { ...(args as Record<string, unknown>) };
  for (const k of Object.keys(out)) if (k.endsWith('_id') && ids[k] && typeof out[k] === 'string' && out[k] !== '') out[k] = ids[k];
  return out;
}

const servers = [
  { path: '/mcp', server: agencyToolServer, keys: agencyKeys },
  { path: '/mcp/crm', server: crmToolServer, keys: crmKeys },
];

/** CI's case budget for the whole file (about 12 ms a case on the 2-core CI machine: ~40 s). */
const CI_CASES = 3_200;
const TOOL_COUNT = servers.reduce((sum, s) => sum + s.server.defs.size, 0);
const RUNS = process.env.FUZZ_RUNS ? Number(process.env.FUZZ_RUNS) : Math.max(25, Math.floor(CI_CASES / TOOL_COUNT));
const TOOL_TIMEOUT_MS = 60_000 + RUNS * 50;

describe('fuzzing every tool', () => {
  let n = 0;
  for (const { path, server, keys } of servers) {
    for (const def of server.defs.values()) {
      it(`${path} ${def.name}: a JSON-RPC answer, errors with their code, nothing written when refused (${RUNS} cases)`, async () => {
        const args = aroundObject(def.inputSchema, {});
        await fc.assert(
          fc.asyncProperty(args, fc.boolean(), async (generated, ownIds) => {
            n++;
            const argumentsValue = ownIds ? withOwnIds(generated) : generated;
            const before = await writes(t.org.id);
            const r = await request(env, 'POST', path, {
              key: keys[n % keys.length],
              body: { jsonrpc: '2.0', id: n, method: 'tools/call', params: { name: def.name, arguments: argumentsValue } },
              headers: { accept: 'application/json, text/event-stream' },
              ip: randomIp(),
            });
            const what = `${def.name} ${JSON.stringify(argumentsValue)?.slice(0, 200)} → ${r.status} ${r.text.slice(0, 300)}`;
            // The platform refuses NUL characters in any body before the protocol layer: HTTP 400 in the envelope.
            if (r.status === 400) {
              expect(r.json.error.code, what).toBe('validation_error');
              expect(r.json.error.message, what).toMatch(/NUL/);
              expect(await writes(t.org.id), what).toBe(before);
              return;
            }
            expect(r.status, what).toBe(200);
            if (r.json.error) {
              // Arguments that are not an object at all are a protocol error (-32602), not a tool error.
              expect(r.json.error.code, what).toBe(-32602);
              expect(await writes(t.org.id), what).toBe(before);
              return;
            }
            const result = r.json.result;
            if (result.isError) {
              const text: string = result.content[0].text;
              expect(text, what).toMatch(/^[a-z_]+: /);
              expect(text, what).not.toMatch(/^(internal_error|service_unavailable):/);
              const envelope = JSON.parse(text.slice(text.indexOf('\n') + 1));
              expect(typeof envelope.error.code, what).toBe('string');
              expect(result.structuredContent, what).toBeUndefined();
              expect(await writes(t.org.id), what).toBe(before);
            } else {
              expect(result.structuredContent, what).toBeTypeOf('object');
            }
          }),
          { numRuns: RUNS },
        );
      }, TOOL_TIMEOUT_MS);
    }
  }
});
