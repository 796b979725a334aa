// core §2 "Visibility of CRM leads": exactly the portal. ooo, spam and unclassified never; hot/warm/cold unless
// switched off; not_interested only when shown. Invisible leads are not listed and answer 404 on get, update and
// notes. An ooo lead that later sends a real reply appears, and updated_since shows it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { crmTenant, listAll, type CrmTenant } from './crm_helpers';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

async function oneOfEach(t: CrmTenant) {
  const ids: Record<string, string> = {};
  for (const c of ['hot', 'warm', 'cold', 'not_interested', 'ooo', 'spam', null]) ids[String(c)] = (await t.lead({ classification: c })).leadId;
  return ids;
}

async function expectHidden(t: CrmTenant, leadId: string) {
  for (const [method, path, body] of [
    ['GET', `/v1/crm/leads/${leadId}`],
    ['PATCH', `/v1/crm/leads/${leadId}`, { phase: 'contacted' }],
    ['POST', `/v1/crm/leads/${leadId}/notes`, { text: 'x' }],
  ] as const) {
    const r = await t.crm(method, path, body);
    expect(r.status, `${method} ${path}`).toBe(404);
    expect(r.json.error.code).toBe('not_found');
  }
}

describe('visibility follows the portal', () => {
  it('default portal: hot, warm, cold visible; not_interested, ooo, spam and unclassified not', async () => {
    const t = await crmTenant(env);
    const ids = await oneOfEach(t);
    const listed = (await listAll(t)).leads.map((l) => l.id).sort();
    expect(listed).toEqual([ids.hot, ids.warm, ids.cold].sort());
    for (const c of ['hot', 'warm', 'cold']) expect((await t.crm('GET', `/v1/crm/leads/${ids[c]}`)).json.lead.classification).toBe(c);
    for (const c of ['not_interested', 'ooo', 'spam', 'null']) await expectHidden(t, ids[c]);
  });

  it('switches: hot hidden and not_interested shown; ooo, spam and unclassified still never', async () => {
    const t = await crmTenant(env, { portal: { show_hot: false, show_not_interested: true } });
    const ids = await oneOfEach(t);
    expect((await listAll(t)).leads.map((l) => l.id).sort()).toEqual([ids.warm, ids.cold, ids.not_interested].sort());
    for (const c of ['hot', 'ooo', 'spam', 'null']) await expectHidden(t, ids[c]);
    // A classification filter cannot reach around the portal.
    expect((await listAll(t, 'classification=hot,ooo')).leads).toEqual([]);
  });

  it('a portal that shows nothing lists nothing', async () => {
    const t = await crmTenant(env, { portal: { show_hot: false, show_warm: false, show_cold: false } });
    await oneOfEach(t);
    expect((await listAll(t)).leads).toEqual([]);
  });

  it('a lead reclassified out of view disappears (404), and back into view reappears', async () => {
    const t = await crmTenant(env);
    const { leadId, replyId } = await t.lead({ classification: 'warm' });
    expect((await t.call('PATCH', `/v1/leads/${replyId}`, { body: { classification: 'not_interested' } })).status).toBe(200);
    await expectHidden(t, leadId);
    expect((await t.call('PATCH', `/v1/leads/${replyId}`, { body: { classification: 'hot' } })).status).toBe(200);
    expect((await t.crm('GET', `/v1/crm/leads/${leadId}`)).status).toBe(200);
  });

  it('an out-of-office lead that later replies for real appears, and updated_since shows it', async () => {
    const t = await crmTenant(env);
    const email = 'traveller@wayne-enterprises.com';
    const first = await t.reply({ from_email: email, body: 'I am out of the office until Monday 12 May with limited access to email. I will respond when I return.' });
    const lead = await env.services.db.query.leads.findFirst({ where: (l, { eq }) => eq(l.id, first.leadId) });
    expect(lead?.classification).toBe('ooo');
    await expectHidden(t, first.leadId);
    const runStart = new Date().toISOString();
    expect((await listAll(t, `updated_since=${encodeURIComponent(runStart)}`)).leads).toEqual([]);

    const real = await t.reply({ from_email: email, body: 'Back now. Yes, this is interesting: can we do a call on Thursday?' });
    expect(real.leadId).toBe(first.leadId);
    const changed = (await listAll(t, `updated_since=${encodeURIComponent(runStart)}`)).leads;
    expect(changed.map((l) => l.id)).toEqual([first.leadId]);
    expect(['hot', 'warm']).toContain(changed[0].classification);
    expect(changed[0].reply_count).toBe(2);
  });
});
