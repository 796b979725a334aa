import { and, eq } from 'drizzle-orm';
import { domains } from '../../../schema';
import { BuyDomainParams } from '../../infra/step_params';
import type { StepKind } from '../step_kind';
import { oncePerStep } from './effect';

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/**
 * Buys a domain at the registrar for the plan's client. The step id is the order reference: the registrar answers a
 * repeated reference with the first order (never a second purchase), and the domains row is written once per step
 * (oncePerStep; domains_order_ref_uq backs it). Taken meanwhile or dearer than max_price_cents: the run throws with
 * the registrar's reason, is retried like any failure, and the step fails after its attempts (nothing was bought).
 */
export const buyDomainStep: StepKind<BuyDomainParams> = {
  kind: 'buy_domain',
  summary: (p) => `Buy ${p.domain} (at most ${dollars(p.max_price_cents)} for the first year)`,
  params: BuyDomainParams,
  buys: true,
  undoable: false,
  credits: () => 0,
  dryRun: async (ctx, p) => {
    const db = ctx.services.db;
    const [owned] = await db.select({ clientId: domains.clientId }).from(domains).where(and(eq(domains.orgId, ctx.orgId), eq(domains.name, p.domain)));
    if (owned) return [`${p.domain} is already bought by ${owned.clientId === ctx.clientId ? 'this client' : 'another client of the organization'}.`];
    const [q] = await ctx.services.studio.registrar.check({ db }, [p.domain]);
    if (!q || !q.available) return [`${p.domain} is not available at the registrar.`];
    if (q.price_cents === null) return [`${p.domain} has no price at the registrar.`];
    if (q.price_cents > p.max_price_cents) return [`${p.domain} costs ${dollars(q.price_cents)} a year, above the step's maximum of ${dollars(p.max_price_cents)}.`];
    return [];
  },
  run: async (ctx, p) => {
    const { db, studio } = ctx.services;
    const order = await studio.registrar.buy({ db }, { orgId: ctx.orgId, domain: p.domain, reference: ctx.stepId, maxPriceCents: p.max_price_cents });
    if (!order.ok) {
      const why = order.reason === 'unavailable' ? 'is no longer available' : order.reason === 'price_changed' ? 'now costs more than the step allows' : order.reason === 'rate_limited' ? 'could not be ordered yet (registrar rate limit)' : 'could not be ordered (registrar error)';
      throw new Error(`${p.domain} ${why}: ${order.detail}`);
    }
    return oncePerStep(ctx, 'buy_domain', async (tx) => {
      const [row] = await tx
        .insert(domains)
        .values({
          orgId: ctx.orgId,
          clientId: ctx.clientId,
          name: p.domain,
          status: 'bought',
          priceCents: order.price_cents,
          orderRef: ctx.stepId,
          registrarOrderId: order.order_id,
          boughtAt: ctx.now,
          createdAt: ctx.now,
          updatedAt: ctx.now,
        })
        .onConflictDoNothing()
        .returning({ id: domains.id });
      // Another run of this step (a lease taken over mid-run) wrote it first: answer its row.
      const id = row?.id ?? (await tx.select({ id: domains.id }).from(domains).where(and(eq(domains.orgId, ctx.orgId), eq(domains.orderRef, ctx.stepId))))[0]?.id;
      if (!id) throw new Error(`${p.domain} was bought (order ${order.order_id}) but the organization already holds a domain of that name from another step`);
      return { domain: p.domain, domain_id: id, order_id: order.order_id, price_cents: order.price_cents, ...(order.simulated && { simulated: true }) };
    });
  },
};
