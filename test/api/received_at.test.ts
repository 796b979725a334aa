// A reply's received_at more than 5 minutes in the future is refused (400 naming received_at) on both ingestion
// paths: the admin route and a sending tool's webhook (bounds checked against the service's clock). Nothing is
// stored for a refused reply; a sender clock a little fast is tolerated.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boundsProblems, RECEIVED_AT_MAX_AHEAD_MS } from '../../lib/inbound/bounds';
import { replies } from '../../schema';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { newTenant } from '../helpers/tenant';
import { addSource, deliver, genericReply } from './inbound_helpers';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

const minutes = (n: number) => n * 60_000;
const repliesOf = (orgId: string) => env.services.db.select({ id: replies.id }).from(replies).where(eq(replies.orgId, orgId));

describe('admin POST /admin/v1/orgs/{org_id}/inbound-replies', () => {
  it('refuses received_at more than 5 minutes ahead, accepts up to that and any past time', async () => {
    const t = await newTenant(env);
    const post = (received_at: string) => t.admin('POST', `/admin/v1/orgs/${t.org.id}/inbound-replies`, { campaign_id: t.campaign.id, from_email: 'ann@prospect.com', body: 'Yes, tell me more.', received_at });
    for (const ahead of [minutes(6), minutes(60 * 24 * 365)]) {
      const r = await post(new Date(Date.now() + ahead).toISOString());
      expect(r.status).toBe(400);
      expect(r.json.error.code).toBe('validation_error');
      expect(r.json.error.message).toMatch(/^received_at: more than 5 minutes in the future/);
    }
    expect(await repliesOf(t.org.id)).toEqual([]);
    const fast = await post(new Date(Date.now() + minutes(4)).toISOString());
    expect(fast.status).toBe(201);
    expect((await post('2026-01-05T10:00:00+01:00')).status).toBe(201);
    expect(await repliesOf(t.org.id)).toHaveLength(2);
  });
});

describe('POST /v1/inbound/{source_id} (a sending tool)', () => {
  it('refuses received_at more than 5 minutes ahead of the service clock, naming it; stores nothing', async () => {
    const t = await newTenant(env);
    const source = await addSource(t);
    const ahead = new Date(env.clock.now().getTime() + minutes(10)).toISOString();
    const r = await deliver(env, source, genericReply({ received_at: ahead }));
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('validation_error');
    expect(r.json.error.message).toMatch(/^received_at: more than 5 minutes in the future/);
    expect(await repliesOf(t.org.id)).toEqual([]);

    const fast = new Date(env.clock.now().getTime() + minutes(4)).toISOString();
    const ok = await deliver(env, source, genericReply({ received_at: fast }));
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json.reply_id).toEqual(expect.any(String));
    expect(await repliesOf(t.org.id)).toHaveLength(1);
  });

  it('boundsProblems judges received_at against the clock it is given', () => {
    const now = new Date('2026-11-20T10:00:00Z');
    const reply = (received_at: string | null) => ({ message_id: 'm1', from_email: 'a@b.co', campaign: { name: 'c' }, received_at });
    expect(boundsProblems(reply(null), now)).toEqual([]);
    expect(boundsProblems(reply('2026-11-20T10:05:00Z'), now)).toEqual([]);
    expect(boundsProblems(reply('2019-01-01T00:00:00Z'), now)).toEqual([]);
    expect(boundsProblems(reply('2026-11-20T10:05:00.001Z'), now)).toEqual([expect.stringMatching(/^received_at: more than 5 minutes in the future/)]);
    expect(boundsProblems(reply('2026-11-20T12:00:00+01:00'), now)).toHaveLength(1);
    expect(RECEIVED_AT_MAX_AHEAD_MS).toBe(minutes(5));
  });
});
