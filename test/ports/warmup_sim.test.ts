// The simulated warm-up/health port: deterministic days (same seed same answer, another seed differs), warm-up
// volume growing with age plus the sending cap, nothing while parked, healthy mailboxes under 2 % over a week, about
// 5 % of mailboxes failing in their second week of sending, `fail-` domains bouncing 5 % (nothing while parked), and
// overrides (address before domain) injected in sim_health_overrides, read once per call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HealthInput } from '../../lib/ports/warmup/port';
import { createSimWarmupHealth, deleteHealthOverride, failsInWeek2, putHealthOverride, warmupVolume, WEEK2_BOUNCE_RATE } from '../../lib/ports/warmup/sim';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { newTenant } from '../helpers/tenant';

let env: TestEnv;
let orgId: string;
beforeAll(async () => {
  env = await startTestEnv();
  orgId = (await newTenant(env)).org.id;
});
afterAll(() => env.close());

const deps = () => ({ db: env.services.db });
const mailbox = (i: number, o: Partial<HealthInput> = {}): HealthInput => ({
  mailbox_id: `m${i}`,
  address: `sender${i}@${o.domain ?? `brand${i % 50}.com`}`,
  domain: `brand${i % 50}.com`,
  age_days: 20,
  sending_day: 3,
  cap: 20,
  parked: false,
  ...o,
});
const dayOf = (n: number) => new Date(Date.UTC(2026, 0, 1 + n)).toISOString().slice(0, 10);

describe('the simulated warm-up and health', () => {
  it('is deterministic: the same seed answers the same, another seed differs somewhere', async () => {
    const inputs = Array.from({ length: 300 }, (_, i) => mailbox(i, { cap: 30 + (i % 3) * 40, sending_day: 1 + (i % 20) }));
    const a = await createSimWarmupHealth('seed-a').health(deps(), orgId, '2026-03-02', inputs);
    expect(await createSimWarmupHealth('seed-a').health(deps(), orgId, '2026-03-02', inputs)).toEqual(a);
    expect(await createSimWarmupHealth('seed-b').health(deps(), orgId, '2026-03-02', inputs)).not.toEqual(a);
    expect(a.map((d) => d.mailbox_id)).toEqual(inputs.map((m) => m.mailbox_id));
  });

  it('sends warm-up mail growing with age plus the cap; parked sends and bounces nothing', async () => {
    const h = createSimWarmupHealth('vol');
    const [young, old, sending, parked] = await h.health(deps(), orgId, '2026-03-02', [
      mailbox(1, { age_days: 1, cap: 0, sending_day: 0 }),
      mailbox(2, { age_days: 40, cap: 0, sending_day: 0 }),
      mailbox(3, { age_days: 40, cap: 30 }),
      mailbox(4, { age_days: 40, cap: 0, parked: true, sending_day: 0 }),
    ]);
    expect(young.sent).toBe(warmupVolume(1));
    expect(old.sent).toBeGreaterThan(young.sent);
    expect(sending.sent).toBe(old.sent + 30);
    expect(parked).toEqual({ mailbox_id: 'm4', sent: 0, bounced: 0, connected: true, domain_listed: false });
  });

  it('keeps a healthy mailbox under 2 % over any 7 days', async () => {
    const h = createSimWarmupHealth('healthy');
    // Sending days 15+ are past the week-2 failure window; caps up to 100.
    const inputs = Array.from({ length: 200 }, (_, i) => mailbox(i, { cap: [10, 20, 30, 60, 100][i % 5], sending_day: 20 }));
    const totals = inputs.map(() => ({ sent: 0, bounced: 0 }));
    for (let d = 0; d < 7; d++) {
      const days = await h.health(deps(), orgId, dayOf(d), inputs);
      days.forEach((x, i) => {
        totals[i].sent += x.sent;
        totals[i].bounced += x.bounced;
      });
    }
    for (const t of totals) expect(t.bounced / t.sent).toBeLessThan(0.02);
    expect(totals.some((t) => t.bounced > 0)).toBe(true);
  });

  it('about 5 % of 1,000 mailboxes fail in their second week of sending (6 %), and only then', async () => {
    const seed = 'week2';
    const h = createSimWarmupHealth(seed);
    const inputs = Array.from({ length: 1000 }, (_, i) => mailbox(i, { cap: 20, sending_day: 10 }));
    const failing = await Promise.all(inputs.map((m) => failsInWeek2(seed, m.address)));
    const share = failing.filter(Boolean).length / inputs.length;
    expect(share).toBeGreaterThan(0.03);
    expect(share).toBeLessThan(0.07);
    const week2 = await h.health(deps(), orgId, '2026-03-02', inputs);
    week2.forEach((d, i) => {
      if (failing[i]) expect(d.bounced).toBe(Math.max(1, Math.round(d.sent * WEEK2_BOUNCE_RATE)));
      else expect(d.bounced / d.sent).toBeLessThan(0.02);
    });
    // The same mailboxes in week 1 and week 3 are healthy.
    for (const sending_day of [5, 15]) {
      const other = await h.health(deps(), orgId, '2026-03-02', inputs.map((m) => ({ ...m, sending_day })));
      other.forEach((d, i) => failing[i] && expect(d.bounced / d.sent).toBeLessThan(0.02));
    }
  });

  it('fail- domains bounce 5 % of what they send, at least one, and nothing while parked', async () => {
    const h = createSimWarmupHealth('fail');
    const inputs = [0, 5, 30, 90].map((cap, i) => ({ ...mailbox(i, { cap, sending_day: cap ? 3 : 0 }), domain: 'fail-acme.com', address: `s${i}@fail-acme.com` }));
    const days = await h.health(deps(), orgId, '2026-03-02', inputs);
    for (const d of days) {
      expect(d.sent).toBeGreaterThan(0);
      expect(d.bounced).toBe(Math.max(1, Math.ceil(d.sent * 0.05)));
      expect(d.bounced / d.sent).toBeGreaterThanOrEqual(0.05);
    }
    const [parked] = await h.health(deps(), orgId, '2026-03-02', [{ ...inputs[2], parked: true, cap: 0 }]);
    expect(parked).toMatchObject({ sent: 0, bounced: 0 });
  });

  it('applies overrides: address before domain, field by field; removing one restores the simulation', async () => {
    const h = createSimWarmupHealth('over');
    const a = { ...mailbox(1, { cap: 40 }), address: 'anna@override.com', domain: 'override.com' };
    const b = { ...mailbox(2, { cap: 40 }), address: 'bob@override.com', domain: 'override.com' };
    const before = await h.health(deps(), orgId, '2026-03-02', [a, b]);
    await putHealthOverride(env.services.db, orgId, { target: 'override.com', bounce_rate: 0.5, listed: true });
    await putHealthOverride(env.services.db, orgId, { target: 'Anna@Override.com', bounce_rate: 0.1, disconnected: true });
    const [da, db] = await h.health(deps(), orgId, '2026-03-02', [a, b]);
    expect(da).toMatchObject({ bounced: Math.round(da.sent * 0.1), connected: false, domain_listed: true });
    expect(db).toMatchObject({ bounced: Math.round(db.sent * 0.5), connected: true, domain_listed: true });
    // null clears one field, keeping the others.
    const cleared = await putHealthOverride(env.services.db, orgId, { target: 'anna@override.com', disconnected: null });
    expect(cleared).toMatchObject({ target: 'anna@override.com', bounce_rate: expect.closeTo(0.1, 5), disconnected: null });
    expect((await h.health(deps(), orgId, '2026-03-02', [a]))[0].connected).toBe(true);
    expect(await deleteHealthOverride(env.services.db, orgId, 'anna@override.com')).toBe(true);
    expect(await deleteHealthOverride(env.services.db, orgId, 'override.com')).toBe(true);
    expect(await deleteHealthOverride(env.services.db, orgId, 'override.com')).toBe(false);
    expect(await h.health(deps(), orgId, '2026-03-02', [a, b])).toEqual(before);
  });

  it('reads the overrides once per call, whatever the number of mailboxes', async () => {
    const inputs = Array.from({ length: 2000 }, (_, i) => mailbox(i));
    const stats = env.services.database.stats;
    const before = stats.queries;
    const days = await createSimWarmupHealth('bulk').health(deps(), orgId, '2026-03-02', inputs);
    expect(days).toHaveLength(2000);
    expect(stats.queries - before).toBe(1);
  });
});
