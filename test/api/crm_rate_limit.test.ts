// core §5/§7/§8: at most 60 CRM writes per minute per key, in the limits port (in-process embedded, Upstash in
// the integration tier): the 61st is 429 crm_write_rate_limited with Retry-After: 60 and writes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshLimitWindow, startTestEnv, TIER, type TestEnv } from '../helpers/harness';
import { crmTenant, trailOfLead } from './crm_helpers';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

describe('60 CRM writes per minute per key', () => {
  it('the 61st write (updates and notes alike) is 429 with Retry-After 60; reads and other keys are not limited', async () => {
    const t = await crmTenant(env);
    const { leadId } = await t.lead();
    await freshLimitWindow(env);
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) {
      const r = i % 2 ? await t.crm('PATCH', `/v1/crm/leads/${leadId}`, { deal: { value: i, currency: 'EUR' } }) : await t.crm('POST', `/v1/crm/leads/${leadId}/notes`, { text: `n${i}` });
      statuses.push(r.status);
    }
    expect(statuses.every((s) => s === 200 || s === 201)).toBe(true);
    const trailBefore = await trailOfLead(t, leadId);
    const r = await t.crm('PATCH', `/v1/crm/leads/${leadId}`, { phase: 'won' });
    expect(r.status).toBe(429);
    expect(r.json.error.code).toBe('crm_write_rate_limited');
    expect(r.headers.get('retry-after')).toBe('60');
    expect((await t.crm('POST', `/v1/crm/leads/${leadId}/notes`, { text: 'x' })).json.error.code).toBe('crm_write_rate_limited');
    expect((await t.crm('GET', `/v1/crm/leads/${leadId}`)).json.lead.phase).toBe('new');
    expect(await trailOfLead(t, leadId)).toHaveLength(trailBefore.length);
    expect((await t.crm('GET', '/v1/crm/leads')).status).toBe(200);
    const other = await t.addKey({ name: 'second CRM', scopes: ['crm.write'], client_id: t.client.id });
    expect((await t.crm('PATCH', `/v1/crm/leads/${leadId}`, { phase: 'won' }, other)).status).toBe(200);
  }, 60_000);

  it.skipIf(TIER === 'integration')('the next minute the key writes again', async () => {
    const t = await crmTenant(env);
    const { leadId } = await t.lead();
    await freshLimitWindow(env);
    for (let i = 0; i < 60; i++) await t.crm('POST', `/v1/crm/leads/${leadId}/notes`, { text: `n${i}` });
    expect((await t.crm('POST', `/v1/crm/leads/${leadId}/notes`, { text: 'over' })).status).toBe(429);
    await freshLimitWindow(env);
    expect((await t.crm('POST', `/v1/crm/leads/${leadId}/notes`, { text: 'again' })).status).toBe(201);
  });
});
