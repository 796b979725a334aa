// Visibility changes that are not lead writes (portal switches, a campaign moving to another client) still reach
// an incremental sync: the leads they reveal are stamped as changed.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leads } from '../../schema';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { crmTenant, listAll } from './crm_helpers';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

/** Moves a lead's last change well outside the feed's clock-skew overlap, as if it changed long ago. */
const ageLead = (leadId: string) => env.services.db.update(leads).set({ updatedAt: sql`now() - interval '10 minutes'` }).where(eq(leads.id, leadId));

describe('visibility changes in the CRM feed', () => {
  it('a lead revealed by a portal switch shows up in updated_since', async () => {
    const t = await crmTenant(env);
    const { leadId, replyId } = await t.lead();
    expect((await t.call('PATCH', `/v1/leads/${replyId}`, { body: { classification: 'not_interested' } })).status).toBe(200);
    await ageLead(leadId);
    const runStart = new Date().toISOString();
    expect((await listAll(t, `updated_since=${encodeURIComponent(runStart)}`)).leads).toEqual([]);

    expect((await t.admin('PATCH', `/admin/v1/clients/${t.client.id}`, { portal: { show_not_interested: true } })).status).toBe(200);
    const changed = (await listAll(t, `updated_since=${encodeURIComponent(runStart)}`)).leads;
    expect(changed.map((l: { id: string }) => l.id)).toEqual([leadId]);
  });

  it('a lead whose campaign moves to the key’s client shows up in updated_since', async () => {
    const t = await crmTenant(env);
    const other = await t.addClient('Client B');
    const campaign = await t.addCampaign(other.id, 'Moving campaign');
    const { leadId } = await t.reply({ campaign_id: campaign.id, body: 'Yes, let us book a call on Tuesday.' });
    await ageLead(leadId);
    const runStart = new Date().toISOString();
    expect((await t.admin('PATCH', `/admin/v1/campaigns/${campaign.id}`, { client_id: t.client.id })).status).toBe(200);
    const changed = (await listAll(t, `updated_since=${encodeURIComponent(runStart)}`)).leads;
    expect(changed.map((l: { id: string }) => l.id)).toEqual([leadId]);
  });
});
