// Domain tools' test helpers: a Studio tenant (planTenant) plus names the simulated registrar has free (read from its
// own truth, simOffer with the service's SIM_SEED), fresh per run because a name sold in sim_orders stays sold.
import { randomInt } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { simOffer } from '../../lib/ports/registrar/sim';
import { auditLog, simOrders } from '../../schema';
import type { TestEnv } from '../helpers/harness';
import type { PlanTenant } from '../plans/plans_helpers';

export const freshStem = () => `zq${randomInt(1e9).toString(36)}${randomInt(1e6).toString(36)}`;

/** A .com name the simulated registrar sells at or under `max` cents (the rule's default maximum is 1500). */
export async function freeDomain(env: TestEnv, max = 1500, prefix = ''): Promise<string> {
  for (;;) {
    const name = `${prefix}${freshStem()}.com`;
    const offer = await simOffer(env.config.SIM_SEED, name);
    if (offer.available && offer.price_cents <= max) return name;
  }
}

/** Both calls of a two-step route with any method: the preview (must carry a token), then the confirm. */
export async function twoStep(a: PlanTenant, method: string, path: string, body: Record<string, unknown>) {
  const preview = await a.rest(method, path, body);
  expect(preview.status, preview.text).toBe(200);
  expect(preview.json.confirm_token, preview.text).toEqual(expect.any(String));
  const done = await a.rest(method, path, { ...body, confirm_token: preview.json.confirm_token });
  return { preview: preview.json, done };
}

export const ordersOf = (env: TestEnv, orgId: string) => env.services.db.select().from(simOrders).where(eq(simOrders.orgId, orgId));
export const auditOf = (env: TestEnv, orgId: string) => env.services.db.select().from(auditLog).where(eq(auditLog.orgId, orgId));
