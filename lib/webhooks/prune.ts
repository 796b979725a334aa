// Retention of the webhook history: event bodies and delivery logs carry prospects' addresses and reply text, so
// they are kept for WEBHOOK_HISTORY_DAYS (long enough to inspect and redeliver) and then deleted. Finished
// deliveries go with their attempts (foreign key cascade); an event goes once it was dispatched that long ago.
// Pending deliveries are never pruned. Bounded per run, so the once-a-minute sweep stays short; a backlog drains
// over a few runs.
import { sql } from 'drizzle-orm';
import { rows, type Db } from '../db/types';

export const WEBHOOK_HISTORY_DAYS = 30;
const PER_RUN = 1_000;

export async function pruneWebhookHistory(db: Db, now: Date, perRun = PER_RUN) {
  const cutoff = new Date(now.getTime() - WEBHOOK_HISTORY_DAYS * 86_400_000).toISOString();
  const deliveries = await rows<{ id: string }>(
    db,
    sql`delete from webhook_deliveries where id in (
          select id from webhook_deliveries where status <> 'pending' and updated_at < ${cutoff}::timestamptz limit ${perRun})
        returning id`,
  );
  const events = await rows<{ id: string }>(
    db,
    sql`delete from events where id in (
          select id from events where dispatched_at is not null and dispatched_at < ${cutoff}::timestamptz limit ${perRun})
        returning id`,
  );
  return { deliveries: deliveries.length, events: events.length };
}
