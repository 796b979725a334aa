// The simulated registrar: availability and price a function of SHA-256 of the name and SIM_SEED (same seed, same
// answer; another seed, another registry), prices by TLD, `taken-` never free, a sold name no longer free, one order
// per reference however often and however concurrently it is bought, `slow-` rate-limited on its first try, and
// `fail-` names bought like any other (their mailboxes fail later).
import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSimRegistrar, RATE_LIMIT_MARK, SIM_REGISTRAR_RETRY_AFTER_SEC } from '../../lib/ports/registrar/sim';
import { simOrders } from '../../schema';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { newTenant } from '../helpers/tenant';

let env: TestEnv;
let orgId: string;
let otherOrgId: string;
beforeAll(async () => {
  env = await startTestEnv();
  orgId = (await newTenant(env)).org.id;
  otherOrgId = (await newTenant(env)).org.id;
});
afterAll(() => env.close());

const deps = () => ({ db: env.services.db });
// Names unique to this run: sim_orders' domain index is global, and the integration tier shares one database.
const run = `${process.pid}${Date.now().toString(36)}`;
const ordersOf = (org: string, reference: string) => env.services.db.select().from(simOrders).where(and(eq(simOrders.orgId, org), eq(simOrders.reference, reference)));

/** The first available .com name of a family, with its price. */
async function freeName(stem: string, maxTries = 40) {
  const names = Array.from({ length: maxTries }, (_, i) => `${stem}${i}-${run}.com`);
  const quotes = await createSimRegistrar('reg').check(deps(), names);
  const q = quotes.find((x) => x.available);
  if (!q) throw new Error(`no free name in the ${stem} family`);
  return { domain: q.domain, price: q.price_cents! };
}

describe('the simulated registrar', () => {
  it('answers the same for the same seed, differently under another, about 80 % available, priced by TLD', async () => {
    const names = Array.from({ length: 500 }, (_, i) => `brand${i}.${['com', 'io', 'net'][i % 3]}`);
    const a = await createSimRegistrar('seed-a').check(deps(), names);
    expect(await createSimRegistrar('seed-a').check(deps(), names)).toEqual(a);
    expect(await createSimRegistrar('seed-b').check(deps(), names)).not.toEqual(a);
    const free = a.filter((q) => q.available);
    expect(free.length / a.length).toBeGreaterThan(0.72);
    expect(free.length / a.length).toBeLessThan(0.88);
    const range: Record<string, [number, number]> = { com: [899, 1399], io: [3000, 4500], net: [1099, 1599] };
    for (const q of a) {
      expect(q.simulated).toBe(true);
      if (!q.available) {
        expect(q.price_cents).toBeNull();
        continue;
      }
      const [lo, hi] = range[q.domain.split('.').pop()!];
      expect(q.price_cents).toBeGreaterThanOrEqual(lo);
      expect(q.price_cents).toBeLessThanOrEqual(hi);
    }
    // Prices vary within a TLD (a function of the name, not a constant).
    expect(new Set(free.filter((q) => q.domain.endsWith('.com')).map((q) => q.price_cents)).size).toBeGreaterThan(20);
  });

  it('never offers taken- names nor invalid ones', async () => {
    const quotes = await createSimRegistrar('reg').check(deps(), [...Array.from({ length: 30 }, (_, i) => `taken-${i}.com`), 'no spaces.com', 'nodot']);
    expect(quotes.every((q) => !q.available && q.price_cents === null)).toBe(true);
    expect(quotes.at(-1)?.domain).toBe('nodot');
    const bought = await createSimRegistrar('reg').buy(deps(), { orgId, domain: 'taken-1.com', reference: `taken-${run}`, maxPriceCents: 100_000 });
    expect(bought).toMatchObject({ ok: false, reason: 'unavailable' });
    expect(await ordersOf(orgId, `taken-${run}`)).toHaveLength(0);
  });

  it('buys once per reference: the same reference again answers the first order, repeated', async () => {
    const { domain, price } = await freeName('once');
    const reg = createSimRegistrar('reg');
    const ref = `step-once-${run}`;
    const first = await reg.buy(deps(), { orgId, domain, reference: ref, maxPriceCents: 5_000 });
    expect(first).toMatchObject({ ok: true, price_cents: price, repeated: false, simulated: true });
    const again = await reg.buy(deps(), { orgId, domain: domain.toUpperCase(), reference: ref, maxPriceCents: 5_000 });
    expect(again).toMatchObject({ ok: true, repeated: true });
    expect(again.ok && first.ok && again.order_id === first.order_id).toBe(true);
    expect(await ordersOf(orgId, ref)).toHaveLength(1);
    // Sold: no longer available to anyone, and another reference cannot buy it.
    expect((await reg.check(deps(), [domain]))[0]).toMatchObject({ available: false, price_cents: null });
    expect(await reg.buy(deps(), { orgId: otherOrgId, domain, reference: `other-${run}`, maxPriceCents: 5_000 })).toMatchObject({ ok: false, reason: 'unavailable' });
    expect(await ordersOf(otherOrgId, `other-${run}`)).toHaveLength(0);
    // A reference that bought one name does not buy another.
    expect(await reg.buy(deps(), { orgId, domain: `else-${run}.com`, reference: ref, maxPriceCents: 5_000 })).toMatchObject({ ok: false, reason: 'error' });
  });

  it('N concurrent buys of one reference make exactly one order, all answering it', async () => {
    const { domain } = await freeName('race');
    const reg = createSimRegistrar('reg');
    const ref = `step-race-${run}`;
    const results = await Promise.all(Array.from({ length: 8 }, () => reg.buy(deps(), { orgId, domain, reference: ref, maxPriceCents: 5_000 })));
    expect(results.every((r) => r.ok)).toBe(true);
    expect(results.filter((r) => r.ok && !r.repeated)).toHaveLength(1);
    expect(new Set(results.map((r) => (r.ok ? r.order_id : null))).size).toBe(1);
    expect(await ordersOf(orgId, ref)).toHaveLength(1);
  });

  it('refuses a price above the accepted maximum as price_changed, writing nothing', async () => {
    const { domain, price } = await freeName('pricey');
    const ref = `step-pricey-${run}`;
    const r = await createSimRegistrar('reg').buy(deps(), { orgId, domain, reference: ref, maxPriceCents: price - 1 });
    expect(r).toMatchObject({ ok: false, reason: 'price_changed', simulated: true });
    expect(await ordersOf(orgId, ref)).toHaveLength(0);
  });

  it('slow- names are rate-limited on the first try of a reference, then bought', async () => {
    const { domain } = await freeName('slow-');
    const reg = createSimRegistrar('reg');
    const ref = `step-slow-${run}`;
    const first = await reg.buy(deps(), { orgId, domain, reference: ref, maxPriceCents: 5_000 });
    expect(first).toMatchObject({ ok: false, reason: 'rate_limited', retry_after_sec: SIM_REGISTRAR_RETRY_AFTER_SEC });
    expect(await reg.buy(deps(), { orgId, domain, reference: ref, maxPriceCents: 5_000 })).toMatchObject({ ok: true, repeated: false });
    expect(await reg.buy(deps(), { orgId, domain, reference: ref, maxPriceCents: 5_000 })).toMatchObject({ ok: true, repeated: true });
    expect(await ordersOf(orgId, ref)).toHaveLength(1);
    // The refused try is a marker row that never makes the name sold to someone else's check.
    const marks = await env.services.db.select().from(simOrders).where(and(eq(simOrders.orgId, orgId), like(simOrders.reference, `%${RATE_LIMIT_MARK}`)));
    expect(marks.filter((m) => m.reference.startsWith(ref))).toHaveLength(1);
  });

  it('fail- names are bought like any other', async () => {
    const { domain } = await freeName('fail-');
    const r = await createSimRegistrar('reg').buy(deps(), { orgId, domain, reference: `step-fail-${run}`, maxPriceCents: 5_000 });
    expect(r).toMatchObject({ ok: true, repeated: false });
  });
});
