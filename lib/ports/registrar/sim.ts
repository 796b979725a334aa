// The simulated registrar (agency-operator.md §6): availability and price are a function of SHA-256 of SIM_SEED and
// the domain, never of chance, so domain_options proposes the same names to a test, a demo and a developer. What it
// sold is a `sim_orders` row (GET /admin/v1/orgs/{org_id}/sim/orders).
//
// About 80 % of names are free; the price depends on the TLD. A name in sim_orders is sold (to anyone). Fault
// injection by name: `taken-…` is never free; `slow-…` answers `rate_limited` on the first try of each reference.
// `fail-…` names are sold like any other: their mailboxes fail later (warm-up sim), which is how §6 exercises
// auto-protect.
import { and, eq, inArray } from 'drizzle-orm';
import { simOrders } from '../../../schema';
import { sha256Hex } from '../../crypto/secrets';
import type { BuyInput, BuyResult, DomainQuote, PortDeps, Registrar } from './port';

export const SIM_REGISTRAR_RETRY_AFTER_SEC = 20;
/** Share of names (per 10,000) the simulated registry has free. */
const AVAILABLE_PER_10K = 8_000;

/** First-year price range in cents by TLD; any other TLD falls in between. */
const PRICE_RANGE: Record<string, [number, number]> = {
  com: [899, 1399],
  net: [1099, 1599],
  org: [999, 1499],
  co: [2200, 2900],
  io: [3000, 4500],
  ai: [6000, 8000],
};
const OTHER_PRICE_RANGE: [number, number] = [1400, 2999];

// A marker row in sim_orders records the refused first try of a `slow-` reference (no table of tries exists):
// its reference and domain carry this suffix, so it can never be mistaken for an order or make a name sold.
export const RATE_LIMIT_MARK = '#rate_limited';

const DOMAIN_RE = /^(?=.{4,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

export function normalizeDomain(raw: string): string {
  return raw.trim().toLowerCase().replace(/\.$/, '');
}
export const isDomainName = (domain: string) => DOMAIN_RE.test(domain);

type Offer = { available: boolean; price_cents: number };

/** What the simulated registry holds for a name, before counting what was sold here. */
export async function simOffer(seed: string, domain: string): Promise<Offer> {
  const hash = await sha256Hex(`${seed}|registrar|${domain}`);
  const [lo, hi] = PRICE_RANGE[domain.slice(domain.lastIndexOf('.') + 1)] ?? OTHER_PRICE_RANGE;
  const price_cents = lo + (parseInt(hash.slice(4, 12), 16) % (hi - lo + 1));
  const free = parseInt(hash.slice(0, 4), 16) % 10_000 < AVAILABLE_PER_10K;
  return { available: free && !domain.startsWith('taken-'), price_cents };
}

export function createSimRegistrar(seed: string): Registrar {
  return {
    kind: 'sim',

    async check(deps: PortDeps, domains: string[]): Promise<DomainQuote[]> {
      const names = domains.map(normalizeDomain);
      const valid = [...new Set(names.filter(isDomainName))];
      const sold = new Set(
        valid.length ? (await deps.db.select({ domain: simOrders.domain }).from(simOrders).where(inArray(simOrders.domain, valid))).map((r) => r.domain) : [],
      );
      return Promise.all(
        names.map(async (domain): Promise<DomainQuote> => {
          if (!isDomainName(domain)) return { domain, available: false, price_cents: null, simulated: true };
          const offer = await simOffer(seed, domain);
          const available = offer.available && !sold.has(domain);
          return { domain, available, price_cents: available ? offer.price_cents : null, simulated: true };
        }),
      );
    },

    async buy(deps: PortDeps, input: BuyInput): Promise<BuyResult> {
      const domain = normalizeDomain(input.domain);
      const refuse = (reason: 'unavailable' | 'price_changed' | 'error', detail: string): BuyResult => ({ ok: false, reason, detail, simulated: true });
      const byReference = () =>
        deps.db
          .select()
          .from(simOrders)
          .where(and(eq(simOrders.orgId, input.orgId), eq(simOrders.reference, input.reference)))
          .then((rows) => rows[0]);
      const answer = (order: typeof simOrders.$inferSelect, repeated: boolean): BuyResult =>
        order.domain === domain
          ? { ok: true, order_id: order.id, price_cents: order.priceCents, repeated, simulated: true }
          : refuse('error', `order reference ${input.reference} already bought ${order.domain}, not ${domain}`);

      if (!isDomainName(domain)) return refuse('error', `"${input.domain}" is not a valid domain name`);
      if (!input.reference || input.reference.includes(RATE_LIMIT_MARK)) return refuse('error', 'an order reference is required');
      // The same reference again is the same order, whatever the registry says now: never a second purchase.
      const first = await byReference();
      if (first) return answer(first, true);

      const offer = await simOffer(seed, domain);
      if (!offer.available) return refuse('unavailable', `${domain} is not available`);
      if (offer.price_cents > input.maxPriceCents) {
        return refuse('price_changed', `${domain} costs ${offer.price_cents} cents, above the accepted ${input.maxPriceCents}`);
      }
      if (domain.startsWith('slow-')) {
        const mark = await deps.db
          .insert(simOrders)
          .values({ orgId: input.orgId, reference: input.reference + RATE_LIMIT_MARK, domain: `${domain}${RATE_LIMIT_MARK}:${input.orgId}:${input.reference}`, priceCents: 0 })
          .onConflictDoNothing()
          .returning({ id: simOrders.id });
        if (mark.length) {
          return { ok: false, reason: 'rate_limited', detail: 'simulated registrar rate limit (slow- domain, first try)', retry_after_sec: SIM_REGISTRAR_RETRY_AFTER_SEC, simulated: true };
        }
      }
      // Both unique indexes decide races: one row per reference, one per domain. Whoever lost reads the winner.
      const inserted = await deps.db
        .insert(simOrders)
        .values({ orgId: input.orgId, reference: input.reference, domain, priceCents: offer.price_cents })
        .onConflictDoNothing()
        .returning();
      if (inserted.length) return answer(inserted[0], false);
      const winner = await byReference();
      if (winner) return answer(winner, true);
      return refuse('unavailable', `${domain} was sold to another order`);
    },
  };
}
