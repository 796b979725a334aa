// The registrar port: which domains are free and at what price, and buying one. Production: Porkbun's JSON API v3;
// embedded: a deterministic simulation (agency-operator.md §6) that records its orders in sim_orders.
import type { Db } from '../../db/types';

export type DomainQuote = {
  domain: string;
  available: boolean;
  /** The first year's price in US cents (null when the registrar named none, e.g. not available). */
  price_cents: number | null;
  simulated?: true;
};

export type BuyInput = {
  orgId: string;
  domain: string;
  /** The idempotency reference (the plan step id): buying again with the same reference never buys twice. */
  reference: string;
  /** The most the caller accepts; a higher price at the registrar refuses the order (`price_changed`). */
  maxPriceCents: number;
};

export type BuyResult =
  | { ok: true; order_id: string; price_cents: number; /** true when this reference had already bought it */ repeated: boolean; simulated?: true }
  /** `unavailable`: taken meanwhile; `price_changed`: above maxPriceCents; `rate_limited`: retry after; `error`: provider failure. */
  | { ok: false; reason: 'unavailable' | 'price_changed' | 'rate_limited' | 'error'; detail: string; retry_after_sec?: number; simulated?: true };

/** What a call needs from the running service: the database (the simulation writes rows). */
export type PortDeps = { db: Db };

export interface Registrar {
  readonly kind: 'sim' | 'porkbun';
  /** Up to 50 names per call; never throws for a provider outcome (a failed check is `available: false`). */
  check(deps: PortDeps, domains: string[]): Promise<DomainQuote[]>;
  buy(deps: PortDeps, input: BuyInput): Promise<BuyResult>;
}
