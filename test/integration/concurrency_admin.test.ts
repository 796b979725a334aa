// Concurrent admin PATCHes of one campaign or one client, on real PostgreSQL (Neon driver, a pool of 10). Each PATCH
// read the row outside its transaction, merged the request into it and wrote every field back, so of several
// PATCHes at once only the last one's field survived: a stats sync undid a client move (and its portal change),
// one portal switch undid another. PGlite runs one statement at a time; the read-merge-write window is real there
// too but far narrower. (Keys and organizations are read under a row lock already.)
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { campaigns, clients } from '../../schema';
import { startTestEnv, TIER } from '../helpers/harness';
import { webhookSuite } from '../helpers/webhook_env';
import { newTenant } from '../helpers/tenant';

const { env } = webhookSuite({ integrationOnly: true, start: startTestEnv });

const ROUNDS = 10;

describe.skipIf(TIER !== 'integration')('concurrent admin PATCHes of one row (real PostgreSQL)', () => {
  it(`a campaign moved to another client while its stats sync and its status changes, ${ROUNDS} times: every change stays`, async () => {
    const t = await newTenant(env);
    const other = await t.addClient();
    let lost = 0;
    for (let i = 0; i < ROUNDS; i++) {
      const c = await t.addCampaign(t.client.id, `campaign ${i}`);
      const results = await Promise.all([
        t.admin('PATCH', `/admin/v1/campaigns/${c.id}`, { client_id: other.id }),
        t.admin('PATCH', `/admin/v1/campaigns/${c.id}`, { sent: 500, opened: 50 }),
        t.admin('PATCH', `/admin/v1/campaigns/${c.id}`, { status: 'paused' }),
      ]);
      expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
      const [row] = await env.services.db.select().from(campaigns).where(eq(campaigns.id, c.id));
      if (!(row.clientId === other.id && row.sent === 500 && row.opened === 50 && row.status === 'paused')) lost++;
    }
    expect(lost).toBe(0);
  });

  it(`a client renamed while two portal switches change, ${ROUNDS} times: every change stays`, async () => {
    const t = await newTenant(env);
    let lost = 0;
    for (let i = 0; i < ROUNDS; i++) {
      const c = await t.addClient(`client ${i}`);
      const results = await Promise.all([
        t.admin('PATCH', `/admin/v1/clients/${c.id}`, { portal: { show_not_interested: true } }),
        t.admin('PATCH', `/admin/v1/clients/${c.id}`, { portal: { show_cold: false } }),
        t.admin('PATCH', `/admin/v1/clients/${c.id}`, { name: `renamed ${i}` }),
      ]);
      expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
      const [row] = await env.services.db.select().from(clients).where(eq(clients.id, c.id));
      if (!(row.portal.show_not_interested === true && row.portal.show_cold === false && row.name === `renamed ${i}`)) lost++;
    }
    expect(lost).toBe(0);
  });
});
