// Recording automatic attempts, in one transaction per batch: the attempt log, each delivery's next state
// (succeeded, a retry after WEBHOOK_RETRY_DELAYS[attempts-1], or failed after the last), and each endpoint's
// consecutive-failure count (every failed attempt counts, any success resets it, 10 disable the endpoint).
import { sql } from 'drizzle-orm';
import { webhookAttempts, type LastError } from '../../schema';
import { rows, type Db } from '../db/types';
import { recordDecision } from '../decisions/record';
import type { JobInput } from '../queue/port';
import { errorText } from '../log';
import type { Services } from '../services';
import type { DeliveryResult } from './deliver';
import { deliverJobs } from './dispatch';

export const AUTO_DISABLE_AFTER = 10;

type Delivery = { id: string; orgId: string; webhookId: string; eventId: string; attempts: number };
export type AttemptOutcome = { delivery: Delivery; result: DeliveryResult; at: Date };

export const lastErrorOf = (r: DeliveryResult, at: Date): LastError => ({ status: r.status, body: r.bodySnippet, error: r.error, at: at.toISOString() });

export async function recordAutomaticAttempts(services: Services, batch: { outcomes: AttemptOutcome[]; skipped: Delivery[]; now: Date }) {
  const { db, queue, config, log } = services;
  const { outcomes, skipped, now } = batch;
  const delays = config.WEBHOOK_RETRY_DELAYS;

  const next = outcomes.map(({ delivery, result }) => {
    const attempts = delivery.attempts + 1;
    if (result.ok) return { id: delivery.id, orgId: delivery.orgId, status: 'succeeded', attempts, at: null };
    if (attempts <= delays.length) return { id: delivery.id, orgId: delivery.orgId, status: 'pending', attempts, at: new Date(now.getTime() + delays[attempts - 1] * 1000) };
    return { id: delivery.id, orgId: delivery.orgId, status: 'failed', attempts, at: null };
  });
  for (const d of skipped) next.push({ id: d.id, orgId: d.orgId, status: 'failed', attempts: d.attempts, at: null });
  const retries = retryJobs(next);

  await db.transaction(async (tx) => {
    if (outcomes.length > 0) {
      await tx.insert(webhookAttempts).values(
        outcomes.map(({ delivery, result, at }) => ({
          deliveryId: delivery.id,
          webhookId: delivery.webhookId,
          attempt: delivery.attempts + 1,
          ok: result.ok,
          httpStatus: result.status,
          durationMs: result.durationMs,
          error: result.error,
          at,
        })),
      );
    }
    if (next.length > 0) {
      const values = sql.join(
        next.map((n) => sql`(${n.id}::uuid, ${n.status}::text, ${n.attempts}::int, ${n.at?.toISOString() ?? null}::timestamptz)`),
        sql`, `,
      );
      await tx.execute(sql`update webhook_deliveries d
        set status = v.status, attempts = v.attempts, next_attempt_at = v.next, updated_at = ${now.toISOString()}::timestamptz
        from (values ${values}) as v(id, status, attempts, next) where d.id = v.id`);
    }
    await updateEndpoints(tx, outcomes, now);
    if (queue.transactional) await queue.enqueue(retries, { tx });
  });
  if (!queue.transactional && retries.length > 0) {
    // The retry time is committed in the delivery row: if this publish fails the sweep sends it when due.
    await queue.enqueue(retries).catch((err) => log.warn('could not schedule webhook retries; the sweep will run them', { error: errorText(err) }));
  }
}

/** Retries due at the same moment share jobs (a batch that failed together retries together). */
function retryJobs(next: { id: string; orgId: string; status: string; at: Date | null }[]): JobInput[] {
  const byTime = new Map<number, { id: string; orgId: string }[]>();
  for (const n of next) if (n.status === 'pending' && n.at) byTime.set(n.at.getTime(), [...(byTime.get(n.at.getTime()) ?? []), n]);
  return [...byTime].flatMap(([t, list]) => deliverJobs(list, new Date(t)));
}

/**
 * One statement for every endpoint of the batch; endpoints it disables get a Decision Trail row. An endpoint keeps
 * the time of its latest successful attempt (`last_delivery_at`) and its latest failed one (`last_error.at`); the
 * latest attempt (`last_attempt_at` in the view) is the later of the two. Neither moves back when batches that ran
 * side by side record out of order.
 */
async function updateEndpoints(tx: Db, outcomes: AttemptOutcome[], now: Date) {
  type Hook = { orgId: string; reset: boolean; tail: number; fails: number; lastError: LastError | null; deliveredAt: Date | null };
  const byHook = new Map<string, Hook>();
  for (const { delivery, result, at } of outcomes) {
    const h = byHook.get(delivery.webhookId) ?? { orgId: delivery.orgId, reset: false, tail: 0, fails: 0, lastError: null, deliveredAt: null };
    if (result.ok) Object.assign(h, { reset: true, tail: 0, deliveredAt: h.deliveredAt && h.deliveredAt > at ? h.deliveredAt : at });
    else {
      Object.assign(h, { tail: h.tail + 1, fails: h.fails + 1 });
      if (!h.lastError || Date.parse(h.lastError.at) <= at.getTime()) h.lastError = lastErrorOf(result, at);
    }
    byHook.set(delivery.webhookId, h);
  }
  if (byHook.size === 0) return;
  const values = sql.join(
    [...byHook].map(
      ([id, h]) =>
        sql`(${id}::text, ${h.reset}::boolean, ${h.tail}::int, ${h.fails}::int, ${h.lastError ? JSON.stringify(h.lastError) : null}::jsonb, ${disabledReason(h.lastError)}::text, ${h.deliveredAt?.toISOString() ?? null}::timestamptz)`,
    ),
    sql`, `,
  );
  // With a success in the batch the count is the failures after the last success; otherwise it grows by all.
  // The endpoints are locked FOR NO KEY UPDATE, in id order: the attempt rows this transaction (and every other
  // batch) just inserted hold KEY SHARE locks on them through their foreign key, which FOR UPDATE would wait on,
  // so two batches over the same endpoints deadlocked (test/integration/webhooks_concurrency.test.ts).
  const count = sql`(case when v.reset then v.tail else w.failure_count + v.fails end)`;
  const updated = await rows<{ id: string; org_id: string; failure_count: number; is_active: boolean; was_active: boolean }>(
    tx,
    sql`
    with v(id, reset, tail, fails, last_error, reason, delivered_at) as (values ${values}),
    old as (select w.id, w.is_active from webhooks w where w.id in (select id from v) order by w.id for no key update)
    update webhooks w set
      failure_count = ${count},
      is_active = w.is_active and ${count} < ${AUTO_DISABLE_AFTER},
      disabled_reason = case when w.is_active and ${count} >= ${AUTO_DISABLE_AFTER} then v.reason else w.disabled_reason end,
      last_delivery_at = greatest(w.last_delivery_at, v.delivered_at),
      last_error = case
        when v.last_error is null then w.last_error
        when w.last_error is null or (v.last_error ->> 'at')::timestamptz >= (w.last_error ->> 'at')::timestamptz then v.last_error
        else w.last_error end
    from v, old
    where w.id = v.id and old.id = w.id
    returning w.id, w.org_id, w.failure_count, w.is_active, old.is_active as was_active`,
  );
  for (const r of updated) {
    if (!r.was_active || r.is_active) continue;
    await recordDecision(tx, {
      orgId: r.org_id,
      actor: 'system',
      action: 'webhook.auto_disabled',
      detail: { webhook_id: r.id, failure_count: r.failure_count, last_error: byHook.get(r.id)?.lastError ?? null },
      at: now,
    });
  }
}

function disabledReason(last: LastError | null) {
  const what = last ? (last.error ?? (last.status ? `HTTP ${last.status}` : 'error')) : 'error';
  return `disabled after ${AUTO_DISABLE_AFTER} consecutive failed deliveries (last: ${what.slice(0, 200)})`;
}
