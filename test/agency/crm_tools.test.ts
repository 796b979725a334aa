import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crmTenant } from '../api/crm_helpers';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { mcpClient, toolJson } from '../helpers/mcp';
import { newTenant, randomIp } from '../helpers/tenant';

// The CRM tool server at /mcp/crm (agency-operator.md §1): the CRM API's four verbs as tools, for client-locked
// crm.* keys on organizations with the CRM feature, with the CRM API's visibility and answers.

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

describe('the CRM tool server', () => {
  it("lists the four tools and answers as the CRM API does: list, get, update, note", async () => {
    const t = await crmTenant(env);
    const { leadId } = await t.lead({ classification: 'hot' });
    await t.lead({ classification: 'ooo' }); // never visible to the CRM
    const client = await mcpClient(env, t.crmKey, { path: '/mcp/crm', ip: randomIp() });
    expect((await client.listTools()).tools.map((x) => x.name).sort()).toEqual(['crm_add_note', 'crm_get_lead', 'crm_list_leads', 'crm_update_lead']);

    const listed = toolJson(await client.callTool({ name: 'crm_list_leads', arguments: { limit: 10 } }));
    const rest = await t.crm('GET', '/v1/crm/leads?limit=10');
    expect(listed.leads.map((l: any) => l.id)).toEqual([leadId]);
    expect({ ...listed, server_time: null }).toEqual({ ...rest.json, server_time: null });

    const got = toolJson(await client.callTool({ name: 'crm_get_lead', arguments: { lead_id: leadId } }));
    expect(got).toEqual((await t.crm('GET', `/v1/crm/leads/${leadId}`)).json);

    const updated = toolJson(await client.callTool({ name: 'crm_update_lead', arguments: { lead_id: leadId, phase: 'discovery' } }));
    expect(updated.lead.phase).toBe('discovery');
    const stale = await client.callTool({ name: 'crm_update_lead', arguments: { lead_id: leadId, phase: 'proposal', if_updated_at: '2020-01-01T00:00:00Z' } });
    expect(stale.isError).toBe(true);
    expect(toolJson(stale)).toMatchObject({ error: { code: 'conflict' }, lead: { id: leadId, phase: 'discovery' } });

    const noted = toolJson(await client.callTool({ name: 'crm_add_note', arguments: { lead_id: leadId, text: 'Called; wants a proposal.' } }));
    expect(noted.lead.notes.map((n: any) => n.text)).toContain('Called; wants a proposal.');
    const blank = await client.callTool({ name: 'crm_add_note', arguments: { lead_id: leadId, text: '   ' } });
    expect((blank.content as any)[0].text).toMatch(/^validation_error: text: /);
    await client.close();
  });

  it("refuses keys that are not client-locked CRM keys, organizations without the CRM feature and other clients' leads", async () => {
    const t = await crmTenant(env);
    const { leadId } = await t.lead({ classification: 'warm' });
    const orgWide = await t.addKey({ name: 'org-wide', scopes: ['*'] as never });
    const r = await env.app.request('/mcp/crm', {
      method: 'POST',
      headers: { authorization: `Bearer ${orgWide}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-forwarded-for': randomIp() },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(r.status).toBe(403);
    expect((await r.json()).error.code).toBe('feature_not_enabled');

    const readOnly = await t.addKey({ name: 'reader', scopes: ['crm.read'], client_id: t.client.id });
    const reader = await mcpClient(env, readOnly, { path: '/mcp/crm', ip: randomIp() });
    expect((await reader.listTools()).tools.map((x) => x.name).sort()).toEqual(['crm_get_lead', 'crm_list_leads']);
    const write = await reader.callTool({ name: 'crm_add_note', arguments: { lead_id: leadId, text: 'x' } });
    expect((write.content as any)[0].text).toMatch(/^insufficient_scope: .*crm\.write/);
    await reader.close();

    const other = await crmTenant(env);
    const outsider = await mcpClient(env, other.crmKey, { path: '/mcp/crm', ip: randomIp() });
    const foreign = await outsider.callTool({ name: 'crm_get_lead', arguments: { lead_id: leadId } });
    expect(toolJson(foreign).error.code).toBe('not_found');
    await outsider.close();

    const noCrm = await newTenant(env);
    const lockedKey = await noCrm.addKey({ scopes: ['crm.read'], client_id: noCrm.client.id });
    const off = await env.app.request('/mcp/crm', {
      method: 'POST',
      headers: { authorization: `Bearer ${lockedKey}`, 'content-type': 'application/json', 'x-forwarded-for': randomIp() },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(off.status).toBe(403);
  });
});
