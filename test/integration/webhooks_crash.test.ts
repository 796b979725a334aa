// Crash test of the embedded scheduler: the service runs as a child process (persistent PGlite in the embedded
// tier, its own PostgreSQL database in the integration tier), is killed with SIGKILL in the middle of fanning 40
// events out to 10 endpoints, and restarted on the same data. Every (event, endpoint) pair must arrive at least
// once, signed, and any duplicate must be the same event id with the byte-identical body.
import { afterAll, describe, expect, it } from 'vitest';
import { childService } from '../helpers/child_service';
import { ADMIN_TOKEN, TIER } from '../helpers/harness';
import { startReceiver, verifyHit, type Receiver } from '../helpers/receiver';

const EVENTS = 40;
const ENDPOINTS = 10;
const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});
const { storage, startChild, call, waitFor } = childService(cleanups);

describe('kill -9 during a webhook fan-out', () => {
  it('delivers every (event, endpoint) pair at least once after a restart; duplicates carry the same id and body', async () => {
    const env = await storage();
    // Slow endpoints keep the fan-out in flight long enough to be killed in the middle of it.
    const receivers: Receiver[] = [];
    for (let i = 0; i < ENDPOINTS; i++) {
      const rx = await startReceiver(() => ({ status: 200, delayMs: 150 }));
      receivers.push(rx);
      cleanups.push(() => rx.close());
    }
    const hits = () => receivers.reduce((n, r) => n + r.hits.length, 0);

    let { child, base } = await startChild(env);
    const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const { org } = await call(base, 'POST', '/admin/v1/orgs', { name: 'crash test' }, admin);
    const { campaign } = await call(base, 'POST', `/admin/v1/orgs/${org.id}/campaigns`, { name: 'Campaign' }, admin);
    const { secret: apiKey } = await call(base, 'POST', `/admin/v1/orgs/${org.id}/keys`, { name: 'k', rate_limit_per_minute: 1000 }, admin);
    const secrets = new Map<string, string>(); // receiver url → whsec_
    for (const rx of receivers) {
      const created = await call(base, 'POST', '/v1/webhooks', { name: 'n', url: rx.url, events: ['lead.replied'] }, { 'x-service-key': apiKey });
      secrets.set(rx.url, created.secret);
    }
    for (let i = 0; i < EVENTS; i++) {
      await call(base, 'POST', `/admin/v1/orgs/${org.id}/inbound-replies`, { campaign_id: campaign.id, from_email: `p${i}@prospect.com`, body: `Reply ${i}: interested.` }, admin);
    }

    expect(await waitFor(() => hits() >= 60, 30_000)).toBe(true);
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    const atKill = hits();
    expect(atKill).toBeLessThan(EVENTS * ENDPOINTS); // the kill really interrupted the fan-out

    ({ child, base } = await startChild(env));
    const complete = () => receivers.every((r) => new Set(r.hits.map((h) => h.headers['x-service-event-id'])).size === EVENTS);
    expect(await waitFor(complete, 90_000)).toBe(true);

    let duplicates = 0;
    for (const rx of receivers) {
      const byId = new Map<string, string>();
      for (const hit of rx.hits) {
        const event = verifyHit(hit, secrets.get(rx.url)!);
        expect(hit.headers['x-service-event-id']).toBe(event.id);
        const earlier = byId.get(event.id);
        if (earlier !== undefined) {
          duplicates++;
          expect(hit.body).toBe(earlier);
        }
        byId.set(event.id, hit.body);
      }
      expect(byId.size).toBe(EVENTS);
    }
    console.log(`crash test (${TIER}): ${atKill} of ${EVENTS * ENDPOINTS} delivered before SIGKILL, ${duplicates} duplicates after restart`);
    child.kill('SIGTERM');
  }, 180_000);
});
