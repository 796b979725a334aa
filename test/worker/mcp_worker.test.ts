// The tool server as its own Worker (`wrangler deploy --env mcp`), run by `wrangler dev` in workerd: the official
// SDK client over real HTTP, the Neon driver to the real PostgreSQL, the Upstash clients to Redis. Proves the MCP
// SDK's web-standard transport and the per-request server run under workerd, not only under Node.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { WebSocket } from 'ws';
import { openNeon } from '../../lib/db/neon';
import { createKey, createOrg } from '../../lib/orgs/admin';
import { TIER } from '../helpers/harness';
import { integrationWorkerVars, startWranglerDev, type WranglerDev } from '../helpers/wrangler_dev';

describe.skipIf(TIER !== 'integration')('the mcp Worker under wrangler dev (workerd)', () => {
  let worker: WranglerDev;
  let key: string;
  let orgId: string;

  beforeAll(async () => {
    const relayPort = inject('wsRelayPort');
    const url = inject('itDatabaseUrl');
    const db = openNeon(url, { webSocketConstructor: WebSocket, wsProxy: `127.0.0.1:${relayPort}/v1`, insecure: true });
    const org = await createOrg(db.db, { name: 'mcp worker', features: { agency_tools: true } });
    orgId = org.id;
    key = (await createKey(db.db, org.id, { name: 'worker assistant', kind: 'agency', scopes: [] })).secret;
    await db.close();
    worker = await startWranglerDev(['--env', 'mcp'], integrationWorkerVars({ itDatabaseUrl: url, wsRelayPort: relayPort, upstashUrl: inject('upstashUrl'), upstashToken: inject('upstashToken') }));
  }, 90_000);

  afterAll(() => worker?.stop());

  it('initializes, lists tools and calls one with the official SDK client; refuses without a key', async () => {
    const unauth = await fetch(`${worker.base}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(unauth.status).toBe(401);
    expect(unauth.headers.get('www-authenticate')).toBe('Bearer');
    const transport = new StreamableHTTPClientTransport(new URL(`${worker.base}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } });
    const client = new Client({ name: 'worker-test', version: '1.0.0' });
    await client.connect(transport);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('get_account');
    const r = await client.callTool({ name: 'get_account', arguments: {} });
    expect(r.isError, JSON.stringify(r) + worker.output()).toBeFalsy();
    expect((r.structuredContent as any).organization.id).toBe(orgId);
    await client.close();
  });
});
