import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { mcpClient, toolJson } from '../helpers/mcp';
import { newTenant, randomIp, request, type Tenant } from '../helpers/tenant';

// The tool server's transport and listing rules (agency-operator.md §1-§2).

let env: TestEnv;
let t: Tenant;
let key: string;
beforeAll(async () => {
  env = await startTestEnv({ MCP_ALLOWED_ORIGINS: 'https://app.example.com' });
  t = await newTenant(env, { features: { agency_tools: true } });
  key = await t.addKey({ name: 'assistant', kind: 'agency', scopes: [] });
});
afterAll(() => env.close());

const rpc = (method: string, params: Record<string, unknown> = {}, id = 1) => ({ jsonrpc: '2.0', id, method, params });
const initialize = (protocolVersion: string) =>
  rpc('initialize', { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '0' } });
const post = (body: unknown, opts: { key?: string | null; headers?: Record<string, string>; path?: string } = {}) =>
  request(env, 'POST', opts.path ?? '/mcp', {
    key: null,
    body,
    headers: { accept: 'application/json, text/event-stream', ...(opts.key === null ? {} : { authorization: `Bearer ${opts.key ?? key}` }), ...opts.headers },
    ip: randomIp(),
  });

describe('the tool server transport', () => {
  it('negotiates protocol revisions 2025-06-18 and 2025-11-25 and says how the two-step confirm works', async () => {
    for (const v of ['2025-06-18', '2025-11-25']) {
      const r = await post(initialize(v));
      expect(r.status, v).toBe(200);
      expect(r.headers.get('content-type')).toMatch(/application\/json/);
      expect(r.json.result.protocolVersion).toBe(v);
      expect(r.json.result.capabilities.tools).toBeDefined();
      expect(r.json.result.instructions).toMatch(/confirm_token/);
    }
    const client = await mcpClient(env, key, { ip: randomIp() });
    expect(client.getServerVersion()?.name).toBe('reply-intelligence-agency');
    expect(LATEST_PROTOCOL_VERSION).toBe('2025-11-25');
    await client.ping();
    await client.close();
  });

  it('answers an SSE stream to a client that accepts only text/event-stream', async () => {
    const r = await post(initialize('2025-11-25'), { headers: { accept: 'text/event-stream' } });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/text\/event-stream/);
    expect(r.text).toMatch(/^event: message\ndata: .*"protocolVersion":"2025-11-25"/m);
  });

  it('answers 401 with WWW-Authenticate: Bearer without a key or with a wrong one, and takes either header form', async () => {
    const presented: Record<string, string>[] = [{}, { authorization: 'Bearer svc_live_' + 'x'.repeat(43) }, { 'x-service-key': 'nope' }];
    for (const headers of presented) {
      const r = await post(initialize('2025-11-25'), { key: null, headers });
      expect(r.status).toBe(401);
      expect(r.headers.get('www-authenticate')).toBe('Bearer');
      expect(r.json.error.code).toBe('unauthorized');
    }
    const viaHeader = await post(initialize('2025-11-25'), { key: null, headers: { 'x-service-key': key } });
    expect(viaHeader.status).toBe(200);
  });

  it('answers 403 feature_not_enabled to every request of an organization without agency_tools, initialize included', async () => {
    const off = await newTenant(env);
    const offKey = await off.addKey({ kind: 'agency', scopes: [] });
    for (const body of [initialize('2025-11-25'), rpc('tools/list'), rpc('tools/call', { name: 'get_account', arguments: {} })]) {
      const r = await post(body, { key: offKey });
      expect(r.status).toBe(403);
      expect(r.json.error.code).toBe('feature_not_enabled');
    }
    const rest = await off.call('GET', '/v1/agency/nothing-here', { key: offKey });
    expect(rest.status).toBe(403);
  });

  it('refuses a foreign Host or an unlisted Origin with 403, allows a listed Origin', async () => {
    const host = await post(initialize('2025-11-25'), { headers: { host: 'evil.example.com' } });
    expect(host.status).toBe(403);
    expect(host.json.error.code).toBe('forbidden_host');
    const origin = await post(initialize('2025-11-25'), { headers: { origin: 'https://evil.example.com' } });
    expect(origin.status).toBe(403);
    expect(origin.json.error.code).toBe('forbidden_origin');
    const listed = await post(initialize('2025-11-25'), { headers: { origin: 'https://app.example.com', host: 'localhost:8787' } });
    expect(listed.status).toBe(200);
  });

  it('answers 405 to GET and DELETE, 415 to a body that is not JSON', async () => {
    for (const method of ['GET', 'DELETE']) {
      const r = await request(env, method, '/mcp', { key, ip: randomIp() });
      expect(r.status, method).toBe(405);
      expect(r.headers.get('allow')).toBe('POST');
    }
    const text = await request(env, 'POST', '/mcp', { key, raw: 'hello', headers: { 'content-type': 'text/plain' }, ip: randomIp() });
    expect(text.status).toBe(415);
    expect(text.json.error.code).toBe('unsupported_media_type');
  });

  it('takes bodies up to 2 MB (the core API stops at 50 KB) and refuses larger ones with 413', async () => {
    const big = 'x'.repeat(1024 * 1024);
    const ok = await post(rpc('tools/call', { name: 'update_agency_docs', arguments: { text: big } }));
    expect(ok.status).toBe(200);
    expect(ok.json.result.content[0].text).toMatch(/^validation_error: text:/); // 1 MB passed the limit, then its own rule
    const tooBig = await post(rpc('tools/call', { name: 'update_agency_docs', arguments: { text: 'x'.repeat(2 * 1024 * 1024 + 1) } }));
    expect(tooBig.status).toBe(413);
    expect(tooBig.json.error.code).toBe('payload_too_large');
  });

  it('answers an unknown tool with JSON-RPC -32602', async () => {
    const r = await post(rpc('tools/call', { name: 'no_such_tool', arguments: {} }));
    expect(r.json.error.code).toBe(-32602);
  });
});

describe('the tool list', () => {
  const names = async (k: string, query = '', headers: Record<string, string> = {}) => {
    const r = await post(rpc('tools/list'), { key: k, path: `/mcp${query}`, headers });
    expect(r.status, r.text).toBe(200);
    return (r.json.result.tools as any[]).map((x) => x.name);
  };

  it('publishes annotations, an input and an output schema for every tool', async () => {
    const r = await post(rpc('tools/list'));
    for (const tool of r.json.result.tools) {
      expect(tool.inputSchema.type, tool.name).toBe('object');
      expect(tool.outputSchema.type, tool.name).toBe('object');
      expect(typeof tool.annotations.readOnlyHint, tool.name).toBe('boolean');
      if (tool.annotations.readOnlyHint) expect(tool.annotations.destructiveHint, tool.name).toBeUndefined();
      else expect(tool.annotations.destructiveHint === true || tool.annotations.idempotentHint === true, tool.name).toBe(true);
    }
    const byName = Object.fromEntries(r.json.result.tools.map((x: any) => [x.name, x]));
    expect(byName.get_account.annotations).toMatchObject({ readOnlyHint: true });
    expect(byName.create_client.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: true, destructiveHint: false });
    expect(byName.update_playbook.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(byName.update_playbook.inputSchema.properties.confirm_token).toBeDefined();
    expect(byName.get_client.inputSchema.required).toEqual(['client_id']);
  });

  it('lists no write tool to an audit key, which gets read_only_key when it calls one anyway', async () => {
    const audit = await t.addKey({ kind: 'agency', scopes: [], read_only: true });
    const listed = await names(audit);
    expect(listed).toContain('get_account');
    expect(listed).not.toContain('create_client');
    const client = await mcpClient(env, audit, { ip: randomIp() });
    const r = await client.callTool({ name: 'create_client', arguments: { name: 'Nope' } });
    expect(r.isError).toBe(true);
    expect((r.content as any)[0].text).toMatch(/^read_only_key: /);
    expect(r.structuredContent).toBeUndefined();
    await client.close();
  });

  it("lists a demo organization's write tools, which answer demo_org", async () => {
    const demo = await newTenant(env, { features: { agency_tools: true } });
    await demo.admin('PATCH', `/admin/v1/orgs/${demo.org.id}`, { demo: true });
    const demoKey = await demo.addKey({ kind: 'agency', scopes: [] });
    expect(await names(demoKey)).toContain('create_client');
    const client = await mcpClient(env, demoKey, { ip: randomIp() });
    const r = await client.callTool({ name: 'create_client', arguments: { name: 'Nope' } });
    expect(toolJson(r).error.code).toBe('demo_org');
    const rest = await demo.call('POST', '/v1/agency/clients', { key: demoKey, body: { name: 'Nope' } });
    expect(rest.status).toBe(403);
    expect(rest.json).toEqual(toolJson(r));
    await client.close();
  });

  it('narrows to toolsets (header or query) and to reads with readonly=1; an unknown toolset is a 400', async () => {
    const all = await names(key);
    const ro = await names(key, '?readonly=1');
    expect(ro.length).toBeLessThan(all.length);
    expect(ro).toContain('get_account');
    expect(ro).not.toContain('update_playbook');
    const replies = await names(key, '?toolsets=replies');
    expect(replies).not.toContain('get_account');
    const viaHeader = await names(key, '', { 'x-mcp-toolsets': 'account' });
    expect(viaHeader).toContain('get_account');
    expect(viaHeader).not.toContain('send_reply');
    const bad = await post(rpc('tools/list'), { path: '/mcp?toolsets=account,bogus' });
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toMatch(/bogus/);
  });
});

describe('the platform around the tool server', () => {
  it('counts one request against the key per call and answers with the rate-limit and request-id headers', async () => {
    const own = await t.addKey({ name: 'counted', kind: 'agency', scopes: [], rate_limit_per_minute: 500 });
    const first = await post(rpc('ping'), { key: own });
    const second = await post(rpc('ping', {}, 2), { key: own });
    expect(first.status).toBe(200);
    expect(first.headers.get('x-ratelimit-limit')).toBe('500');
    expect(first.headers.get('x-request-id')).toBeTruthy();
    expect(Number(first.headers.get('x-ratelimit-remaining')) - Number(second.headers.get('x-ratelimit-remaining'))).toBe(1);
  });

  it('says an unknown tool once, without a library prefix', async () => {
    const r = await post(rpc('tools/call', { name: 'no_such_tool', arguments: {} }));
    expect(r.json.error).toEqual({ code: -32602, message: 'unknown tool: no_such_tool' });
  });
});
