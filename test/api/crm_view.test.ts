// core §2 "CRM lead": the shape field for field, the stable id, name/company rules, notes order, thread_url,
// and which timestamps move when.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leads } from '../../schema';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { crmTenant } from './crm_helpers';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv({ PORTAL_URL: 'https://portal.example.com/' });
});
afterAll(() => env.close());

const FIELDS = [
  'campaign',
  'classification',
  'company',
  'crm_updated_at',
  'deal',
  'email',
  'id',
  'last_activity_at',
  'name',
  'next_action',
  'notes',
  'phase',
  'reply_count',
  'thread_url',
  'updated_at',
];

describe('the CRM lead', () => {
  it('has exactly the fields of the spec, with a stable id under PORTAL_URL', async () => {
    const t = await crmTenant(env);
    const { leadId } = await t.lead({ email: 'Dana@Acme-Robotics.io', name: 'Dana Scully' });
    const r = await t.crm('GET', `/v1/crm/leads/${leadId}`);
    expect(r.status).toBe(200);
    const lead = r.json.lead;
    expect(Object.keys(lead).sort()).toEqual(FIELDS);
    expect(lead).toMatchObject({
      id: leadId,
      email: 'dana@acme-robotics.io',
      name: 'Dana Scully',
      company: { name: null, domain: 'acme-robotics.io' },
      campaign: { id: t.campaign.id, name: t.campaign.name },
      phase: 'new',
      deal: null,
      next_action: null,
      notes: [],
      reply_count: 1,
      thread_url: `https://portal.example.com/leads/${leadId}`,
      crm_updated_at: null,
    });
    expect(['hot', 'warm', 'cold']).toContain(lead.classification);
    expect(Date.parse(lead.updated_at)).not.toBeNaN();
    expect(Date.parse(lead.last_activity_at)).not.toBeNaN();
  });

  it('name is null when unknown or when the name field holds an address; freemail gives no company domain', async () => {
    const t = await crmTenant(env);
    const a = await t.lead({ email: 'someone@gmail.com', name: null });
    const b = await t.lead({ email: 'pat@hotmail.co.uk', name: 'pat@hotmail.co.uk' });
    const c = await t.lead({ email: 'kim@mail.globex.com', name: '  Kim  ' });
    const get = async (id: string) => (await t.crm('GET', `/v1/crm/leads/${id}`)).json.lead;
    expect(await get(a.leadId)).toMatchObject({ name: null, company: { name: null, domain: null } });
    expect(await get(b.leadId)).toMatchObject({ name: null, company: { domain: null } });
    expect(await get(c.leadId)).toMatchObject({ name: 'Kim', company: { domain: 'mail.globex.com' } });
  });

  it('keeps its id when new replies arrive; reply_count, last_activity_at and updated_at move, crm_updated_at does not', async () => {
    const t = await crmTenant(env);
    const { leadId } = await t.lead({ email: 'lee@initech.com' });
    const before = (await t.crm('GET', `/v1/crm/leads/${leadId}`)).json.lead;
    env.clock.advance(60_000);
    const again = await t.reply({ from_email: 'lee@initech.com', body: 'Also, can you send pricing for 50 seats?' });
    expect(again.leadId).toBe(leadId);
    const after = (await t.crm('GET', `/v1/crm/leads/${leadId}`)).json.lead;
    expect(after.id).toBe(before.id);
    expect(after.thread_url).toBe(before.thread_url);
    expect(after.reply_count).toBe(2);
    expect(Date.parse(after.updated_at)).toBeGreaterThan(Date.parse(before.updated_at));
    expect(Date.parse(after.last_activity_at)).toBeGreaterThan(Date.parse(before.last_activity_at));
    expect(after.crm_updated_at).toBeNull();
  });

  it('lists notes from before the CRM API first, author legacy, then CRM notes in order with the key name', async () => {
    const t = await crmTenant(env, { crmKeyName: 'Pipedrive bridge' });
    const { leadId } = await t.lead();
    // The single notes field leads had before the CRM API (PATCH /v1/leads now appends CRM notes instead).
    await env.services.db.update(leads).set({ notes: 'Met at the fair in 2023' }).where(eq(leads.id, leadId));
    expect((await t.crm('POST', `/v1/crm/leads/${leadId}/notes`, { text: 'First call done' })).status).toBe(201);
    env.clock.advance(1_000);
    const r = await t.crm('POST', `/v1/crm/leads/${leadId}/notes`, { text: 'Proposal sent' });
    expect(r.status).toBe(201);
    expect(r.json.lead.notes.map((n: any) => [n.by, n.text])).toEqual([
      ['legacy', 'Met at the fair in 2023'],
      ['Pipedrive bridge', 'First call done'],
      ['Pipedrive bridge', 'Proposal sent'],
    ]);
    for (const n of r.json.lead.notes) expect(Date.parse(n.at)).not.toBeNaN();
    expect(r.json.lead.crm_updated_at).toBe(r.json.lead.updated_at);
  });

  it('a sent reply is activity: last_activity_at and updated_at move', async () => {
    const t = await crmTenant(env);
    const { leadId, replyId } = await t.lead();
    const before = (await t.crm('GET', `/v1/crm/leads/${leadId}`)).json.lead;
    env.clock.advance(5_000);
    const sender = await t.addKey({ name: 'agent', autonomy_level: 2 });
    expect((await t.call('POST', `/v1/replies/${replyId}/send`, { key: sender, body: { body: 'Tuesday 10:00 works.' } })).status).toBe(200);
    const after = (await t.crm('GET', `/v1/crm/leads/${leadId}`)).json.lead;
    expect(Date.parse(after.last_activity_at)).toBeGreaterThan(Date.parse(before.last_activity_at));
    expect(Date.parse(after.updated_at)).toBeGreaterThan(Date.parse(before.updated_at));
  });

  it('is described in the OpenAPI document under the crm tag with both scopes', async () => {
    const t = await crmTenant(env);
    const doc = (await t.call('GET', '/openapi.json', { key: null })).json;
    expect(doc.paths['/v1/crm/leads'].get.security).toEqual([{ ServiceKey: ['crm.read'] }]);
    expect(doc.paths['/v1/crm/leads/{id}'].patch.security).toEqual([{ ServiceKey: ['crm.write'] }]);
    expect(doc.paths['/v1/crm/leads/{id}/notes'].post.tags).toEqual(['crm']);
    expect(Object.keys(doc.components.schemas.CrmLead.properties).sort()).toEqual(FIELDS);
  });
});
