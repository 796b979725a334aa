import { getEncoding } from 'js-tiktoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENCY_OPT_INS } from '../../lib/orgs/admin';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { newTenant, randomIp, request, type Tenant } from '../helpers/tenant';

// Issue 18: a model reads the whole tool list at the start of every conversation, so the spec's 93 tools must fit
// in 25,000 tokens (o200k_base) for a key that sees them all (every opt-in scope, Studio on). A size assertion,
// not a timing one. While fewer than 93 tools are served, the served list's average per tool times 93 must fit
// too, so the budget keeps its meaning as tools are added (docs/studio/tool-list-budget.md).
const SPEC_TOOLS = 93;
const BUDGET = 25_000;
const MAX_DESCRIPTION = 600;

let env: TestEnv;
let t: Tenant;
let tools: Record<string, any>[];
const o200k = getEncoding('o200k_base');
const tokens = (value: unknown) => o200k.encode(JSON.stringify(value)).length;

beforeAll(async () => {
  env = await startTestEnv();
  t = await newTenant(env, { features: { agency_tools: true, studio: true, crm: true } });
  const key = await t.addKey({ kind: 'agency', scopes: [...AGENCY_OPT_INS] });
  const r = await request(env, 'POST', '/mcp', {
    key,
    body: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
    headers: { accept: 'application/json, text/event-stream' },
    ip: randomIp(),
  });
  expect(r.status, r.text).toBe(200);
  tools = r.json.result.tools;
});
afterAll(() => env.close());

describe('the tool list budget (issue 18)', () => {
  it(`fits ${SPEC_TOOLS} tools in ${BUDGET} tokens (o200k_base), counted as tools/list sends it`, () => {
    const whole = tokens(tools);
    const projected = Math.round((whole / tools.length) * SPEC_TOOLS);
    console.log(`tools/list for a full agency key: ${tools.length} tools, ${whole} tokens; ${projected} projected to ${SPEC_TOOLS} tools`);
    expect(tools.length).toBeGreaterThan(50); // a full key sees the whole table, not some toolset
    expect(tools.length).toBeLessThanOrEqual(SPEC_TOOLS);
    expect(whole).toBeLessThanOrEqual(BUDGET);
    // While tools are missing, the average per tool must leave room for them (equal to `whole` at 93 tools).
    expect(projected).toBeLessThanOrEqual(BUDGET);
  });

  it(`keeps each description at most ${MAX_DESCRIPTION} characters and says nothing the name already says`, () => {
    const long = tools.filter((x) => x.description.length > MAX_DESCRIPTION).map((x) => `${x.name} (${x.description.length})`);
    expect(long).toEqual([]);
    for (const tool of tools) {
      expect(tool.description.trim().length, tool.name).toBeGreaterThan(20);
      expect(tool.title, `${tool.name}: a title would only repeat the name`).toBeUndefined();
    }
  });

  it('publishes result schemas as envelopes: each top-level key typed, what is inside left open', () => {
    for (const tool of tools) {
      const branches = tool.outputSchema.anyOf ?? [tool.outputSchema];
      for (const b of branches) {
        expect(b.properties, tool.name).toBeDefined();
        for (const [k, v] of Object.entries<any>(b.properties)) expect(v.properties, `${tool.name}.${k}`).toBeUndefined();
        expect(b.additionalProperties, tool.name).toBeUndefined();
      }
    }
    const byName = new Map(tools.map((x) => [x.name, x]));
    expect(byName.get('get_client')!.outputSchema).toEqual({ type: 'object', properties: { client: { type: 'object' } }, required: ['client'] });
    // A two-step tool: the preview envelope or the result.
    const [preview, result] = byName.get('approve_plan')!.outputSchema.anyOf;
    expect(preview.required).toEqual(['preview', 'confirm_token', 'expires_at', 'credits']);
    expect(result.required).toEqual(['plan']);
  });
});
