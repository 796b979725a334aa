// The dispatcher: committed outbox events not yet dispatched → one delivery per (event, subscribed active
// endpoint), all carrying the event's id and the same stored body. The deliveries and the event's dispatched mark
// commit together (and, on the embedded queue, the jobs that deliver them), so a crash at any point either
// leaves the event pending for the next run or leaves everything it needs to be delivered.
import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import { campaigns, events, replies, webhookDeliveries, webhooks } from '../../schema';
import type { Db } from '../db/types';
import { errorText, type Logger } from '../log';
import type { JobInput, Queue } from '../queue/port';
import { eventBody, isSubscribed } from './views';
import { isUuid } from '../ids';

export const DELIVER_JOB = 'webhook.deliver';
/**
 * Deliveries per deliver job: sent in one wave (the attempt concurrency), so a job of dead endpoints takes one
 * 10 s timeout, well inside the 30 s request limit of the /jobs/run invocation, with few outbound subrequests.
 */
export const DELIVERIES_PER_JOB = 25;
const EVENTS_PER_BATCH = 100;

type Deps = { db: Db; queue: Queue; log: Logger };
type PendingEvent = typeof events.$inferSelect;

/** Dispatches pending events in batches until none is left (or `maxBatches`); returns what it created. */
export async function dispatchEvents(deps: Deps, opts: { now: Date; maxBatches?: number }) {
  let total = { events: 0, deliveries: 0 };
  for (let i = 0; i < (opts.maxBatches ?? 20); i++) {
    const batch = await dispatchBatch(deps, opts.now);
    total = { events: total.events + batch.events, deliveries: total.deliveries + batch.deliveries };
    if (batch.events < EVENTS_PER_BATCH) break;
  }
  return total;
}

async function dispatchBatch({ db, queue, log }: Deps, now: Date) {
  const result = await db.transaction(async (tx) => {
    // SKIP LOCKED: two dispatchers running at once split the pending events instead of waiting on each other.
    const pending = await tx
      .select()
      .from(events)
      .where(isNull(events.dispatchedAt))
      .orderBy(asc(events.createdAt))
      .limit(EVENTS_PER_BATCH)
      .for('update', { skipLocked: true });
    if (pending.length === 0) return { events: 0, deliveries: 0, jobs: [] as JobInput[] };

    const orgIds = [...new Set(pending.map((e) => e.orgId))];
    const hooks = await tx
      .select({ id: webhooks.id, orgId: webhooks.orgId, clientId: webhooks.clientId, events: webhooks.events })
      .from(webhooks)
      .where(and(inArray(webhooks.orgId, orgIds), eq(webhooks.isActive, true)));
    const clientOf = hooks.some((h) => h.clientId) ? await eventClients(tx, pending) : new Map<string, string | null>();

    const values: (typeof webhookDeliveries.$inferInsert)[] = [];
    for (const e of pending) {
      let body: string | undefined;
      for (const h of hooks) {
        if (h.orgId !== e.orgId || !isSubscribed(h.events, e.kind)) continue;
        if (h.clientId && clientOf.get(e.id) !== h.clientId) continue;
        body ??= eventBody(e);
        values.push({ orgId: e.orgId, webhookId: h.id, eventId: e.id, eventKind: e.kind, body, nextAttemptAt: now, createdAt: now, updatedAt: now });
      }
    }
    const created: { id: string; orgId: string }[] = [];
    for (let i = 0; i < values.length; i += 500) {
      const rows = await tx
        .insert(webhookDeliveries)
        .values(values.slice(i, i + 500))
        .onConflictDoNothing() // a re-dispatch after a crash finds the (event, endpoint) pair already there
        .returning({ id: webhookDeliveries.id, orgId: webhookDeliveries.orgId });
      created.push(...rows);
    }
    await tx
      .update(events)
      .set({ dispatchedAt: now })
      .where(
        inArray(
          events.id,
          pending.map((e) => e.id),
        ),
      );
    const jobs = deliverJobs(created);
    if (queue.transactional) await queue.enqueue(jobs, { tx });
    return { events: pending.length, deliveries: created.length, jobs };
  });
  if (!queue.transactional && result.jobs.length > 0) {
    // The deliveries are committed and due now: if QStash is unreachable the sweep delivers them.
    await queue.enqueue(result.jobs).catch((err) => log.warn('could not publish webhook deliveries; the sweep will run them', { error: errorText(err) }));
  }
  return { events: result.events, deliveries: result.deliveries };
}

/** Deliver jobs for new deliveries: one organization per job, at most DELIVERIES_PER_JOB each. */
export function deliverJobs(created: { id: string; orgId: string }[], runAt?: Date): JobInput[] {
  const byOrg = new Map<string, string[]>();
  for (const d of created) byOrg.set(d.orgId, [...(byOrg.get(d.orgId) ?? []), d.id]);
  const jobs: JobInput[] = [];
  for (const [orgId, ids] of byOrg) {
    for (let i = 0; i < ids.length; i += DELIVERIES_PER_JOB) {
      jobs.push({ kind: DELIVER_JOB, payload: { org_id: orgId, delivery_ids: ids.slice(i, i + DELIVERIES_PER_JOB) }, runAt });
    }
  }
  return jobs;
}

/** Which client each event belongs to, through its campaign (or its reply's campaign); null when none. */
export async function eventClients(tx: Db, pending: PendingEvent[]) {
  const str = (v: unknown) => (typeof v === 'string' && isUuid(v) ? v : null);
  const campaignIds = [...new Set(pending.map((e) => str(e.data.campaign_id)).filter((v): v is string => v !== null))];
  const replyIds = [...new Set(pending.map((e) => str(e.data.reply_id)).filter((v): v is string => v !== null))];
  const byCampaign = new Map<string, string | null>();
  const byReply = new Map<string, string | null>();
  if (campaignIds.length) {
    for (const c of await tx.select({ id: campaigns.id, clientId: campaigns.clientId }).from(campaigns).where(inArray(campaigns.id, campaignIds))) byCampaign.set(c.id, c.clientId);
  }
  if (replyIds.length) {
    const rows = await tx
      .select({ id: replies.id, clientId: campaigns.clientId })
      .from(replies)
      .innerJoin(campaigns, eq(campaigns.id, replies.campaignId))
      .where(inArray(replies.id, replyIds));
    for (const r of rows) byReply.set(r.id, r.clientId);
  }
  const out = new Map<string, string | null>();
  for (const e of pending) {
    const c = str(e.data.campaign_id);
    const r = str(e.data.reply_id);
    out.set(e.id, (c && byCampaign.get(c)) ?? (r && byReply.get(r)) ?? null);
  }
  return out;
}
