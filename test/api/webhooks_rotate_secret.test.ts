// Rolling a webhook secret: the new secret signs at once, the replaced one keeps signing beside it until it expires
// (so a receiver switching over never rejects a delivery), then only the new one does. Verified with the stripe and
// standardwebhooks packages, as a receiver would.
import { describe, expect, it } from 'vitest';
import { verifyHit, type Receiver } from '../helpers/receiver';
import { newTenant, type Tenant } from '../helpers/tenant';
import { drain, webhookSuite } from '../helpers/webhook_env';

const { env, receiver } = webhookSuite();

const hours = (n: number) => n * 3_600_000;

async function setup() {
  const t = await newTenant(env);
  const rx = await receiver();
  const created = await t.call('POST', '/v1/webhooks', { body: { name: 'crm', url: rx.url, events: ['lead.replied'] } });
  expect(created.status).toBe(201);
  return { t, rx, id: created.json.webhook.id as string, original: created.json.secret as string };
}

/** One event delivered to the receiver; the hit it produced. */
async function nextHit(t: Tenant, rx: Receiver) {
  const before = rx.hits.length;
  await t.reply();
  await drain(env);
  expect(rx.hits).toHaveLength(before + 1);
  return rx.hits[before];
}

describe('webhook secret roll', () => {
  it('signs with both secrets for 24 hours by default, then with the new one only', async () => {
    const { t, rx, id, original } = await setup();
    const rolled = await t.call('POST', `/v1/webhooks/${id}/rotate-secret`, { body: {} });
    expect(rolled.status).toBe(200);
    const fresh = rolled.json.secret as string;
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(original);
    expect(rolled.json.webhook.id).toBe(id);
    expect(Math.abs(Date.parse(rolled.json.previous_secret_expires_at) - env.clock.now().getTime() - hours(24))).toBeLessThan(5_000); // the test clock ticks with real time

    const during = await nextHit(t, rx);
    expect(verifyHit(during, fresh).event).toBe('lead.replied');
    expect(verifyHit(during, original).event).toBe('lead.replied');
    expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2);

    env.clock.advance(hours(24) + 1_000);
    const after = await nextHit(t, rx);
    expect(verifyHit(after, fresh).event).toBe('lead.replied');
    expect(() => verifyHit(after, original)).toThrow();
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
  });

  it('with 0 hours the replaced secret stops at once; a second roll replaces the previous secret; test pings follow the same rule', async () => {
    const { t, rx, id, original } = await setup();
    const first = await t.call('POST', `/v1/webhooks/${id}/rotate-secret`, { body: { previous_secret_expires_in_hours: 2 } });
    const second = await t.call('POST', `/v1/webhooks/${id}/rotate-secret`, { body: { previous_secret_expires_in_hours: 0 } });
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.json.previous_secret_expires_at).toBeNull();
    const hit = await nextHit(t, rx);
    expect(verifyHit(hit, second.json.secret).event).toBe('lead.replied');
    expect(() => verifyHit(hit, first.json.secret)).toThrow();
    expect(() => verifyHit(hit, original)).toThrow();

    const third = await t.call('POST', `/v1/webhooks/${id}/rotate-secret`, { body: { previous_secret_expires_in_hours: 1 } });
    const ping = await t.call('POST', `/v1/webhooks/${id}/test`, { body: {} });
    expect(ping.json.delivered).toBe(true);
    const pinged = rx.hits[rx.hits.length - 1];
    expect(verifyHit(pinged, third.json.secret).event).toBe('test.ping');
    expect(verifyHit(pinged, second.json.secret).event).toBe('test.ping');
  });

  it('is recorded in the Decision Trail without the secret, refuses bad input, and is a 404 for another organization', async () => {
    const { t, id } = await setup();
    const rolled = await t.call('POST', `/v1/webhooks/${id}/rotate-secret`, { body: { previous_secret_expires_in_hours: 6 } });
    const trail = (await t.admin('GET', `/admin/v1/orgs/${t.org.id}/decisions`)).json.decisions.filter((d: { action: string }) => d.action === 'webhook.secret_rotated');
    expect(trail).toHaveLength(1);
    expect(trail[0].detail).toEqual({ webhook_id: id, previous_secret_expires_at: rolled.json.previous_secret_expires_at });
    expect(JSON.stringify(trail)).not.toContain(rolled.json.secret);

    for (const body of [{ previous_secret_expires_in_hours: 169 }, { previous_secret_expires_in_hours: -1 }, { previous_secret_expires_in_hours: 1.5 }, { secret: 'whsec_mine' }]) {
      const r = await t.call('POST', `/v1/webhooks/${id}/rotate-secret`, { body });
      expect(r.status).toBe(400);
      expect(r.json.error.code).toBe('validation_error');
    }
    const other = await newTenant(env);
    const foreign = await other.call('POST', `/v1/webhooks/${id}/rotate-secret`, { body: {} });
    expect(foreign.status).toBe(404);
    expect(foreign.json.error.code).toBe('not_found');
  });
});
