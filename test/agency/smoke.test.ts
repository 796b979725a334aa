import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { mcpClient, toolJson } from '../helpers/mcp';
import { newTenant } from '../helpers/tenant';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

describe('agency foundation smoke', () => {
  it('serves get_account over REST and MCP with the same answer', async () => {
    const t = await newTenant(env, { features: { agency_tools: true } });
    const key = await t.addKey({ name: 'assistant', kind: 'agency', scopes: [] });
    const rest = await t.call('GET', '/v1/agency/account', { key });
    expect(rest.status).toBe(200);
    const client = await mcpClient(env, key, { ip: t.ip });
    const tools = await client.listTools();
    expect(tools.tools.map((x) => x.name)).toContain('get_account');
    const r = await client.callTool({ name: 'get_account', arguments: {} });
    expect(toolJson(r)).toEqual(rest.json);
    const bad = await client.callTool({ name: 'get_client', arguments: { client_id: 'nope' } });
    expect(bad.isError).toBe(true);
    expect((bad.content as any)[0].text).toMatch(/^validation_error: client_id/);
    const p = await client.callTool({ name: 'update_playbook', arguments: { client_id: t.client.id, instructions: 'Be brief.' } });
    const preview = toolJson(p);
    expect(preview.confirm_token).toMatch(/^ct_/);
    const c = await client.callTool({ name: 'update_playbook', arguments: { client_id: t.client.id, instructions: 'Be brief.', confirm_token: preview.confirm_token } });
    expect(toolJson(c).playbook_version).toBe(1);
    await client.close();
  });
});
