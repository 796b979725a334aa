// The credit meter: 1 credit per suggestion, per key and UTC day, in PostgreSQL (the source of truth).
//
// Lifecycle of one credit:
//   reserve  — ONE statement counts the credit (`used + 1`, only while `used < limit`) and inserts the
//              suggestion row `pending` (the hold). Row-locked by Postgres' ON CONFLICT DO UPDATE, so 20 concurrent
//              reservations with 5 credits left give exactly 5 holds, and `used` never passes the limit.
//   confirm  — the hold becomes `done` in the caller's transaction, together with the `assistant.suggested` event
//              (lib/ai/suggest.ts), so a spent credit and its event commit together.
//   refund   — ONE statement marks the hold `failed` and gives the credit back (`used - 1`, never below 0), only if
//              the hold was still pending: a refund can never run twice for one credit.
//   reclaim  — a hold still pending long after the 30 s request limit belongs to a request that died (a Worker
//              cancelled mid-call, a crash); it is given back when it would otherwise cause a refusal.
import { and, eq, sql } from 'drizzle-orm';
import { aiSuggestions } from '../../schema';
import type { Db } from '../db/types';
import { rows } from '../db/types';
import { HOLD_TTL_MS, utcDay } from './balance';

export { HOLD_TTL_MS };

export type CreditKey = { keyId: string; dailyCreditLimit: number };
export type HoldInput = { id: string; orgId: string; clientId: string | null; medium: string; replyText: string; leadEmail: string | null };
export type Reservation = { ok: true; holdId: string; day: string; used: number; remaining: number } | { ok: false; day: string };

const reserveOnce = async (db: Db, key: CreditKey, hold: HoldInput, day: string, now: Date) => {
  const result = await rows<{ used: number }>(
    db,
    sql`WITH spent AS (
          INSERT INTO credit_usage (key_id, day, used)
          SELECT ${key.keyId}::uuid, ${day}::date, 1 WHERE ${key.dailyCreditLimit}::int >= 1
          ON CONFLICT (key_id, day) DO UPDATE SET used = credit_usage.used + 1
            WHERE credit_usage.used < ${key.dailyCreditLimit}::int
          RETURNING used
        ), hold AS (
          INSERT INTO ai_suggestions (id, org_id, key_id, client_id, status, credit_day, medium, reply_text, lead_email, created_at)
          SELECT ${hold.id}, ${hold.orgId}::uuid, ${key.keyId}::uuid, ${hold.clientId}::uuid, 'pending', ${day}::date,
                 ${hold.medium}, ${hold.replyText}, ${hold.leadEmail}, ${now.toISOString()}::timestamptz
          FROM spent
          RETURNING id
        )
        SELECT used FROM spent`,
  );
  return result[0] ? Number(result[0].used) : null;
};

/** Takes one credit for `key` today, or says the day's credits are spent. */
export async function reserveCredit(db: Db, key: CreditKey, hold: HoldInput, now: Date): Promise<Reservation> {
  const day = utcDay(now);
  let used = await reserveOnce(db, key, hold, day, now);
  // Refused: give back credits held by dead requests, and try once more if that freed any.
  if (used === null && (await reclaimExpiredHolds(db, key.keyId, day, now)) > 0) used = await reserveOnce(db, key, hold, day, now);
  if (used === null) return { ok: false, day };
  return { ok: true, holdId: hold.id, day, used, remaining: Math.max(0, key.dailyCreditLimit - used) };
}

/** Gives the credit of a pending hold back (model error, timeout). Returns false if it was no longer pending. */
export async function refundCredit(db: Db, holdId: string, now: Date): Promise<boolean> {
  const result = await rows<{ used: number }>(
    db,
    sql`WITH released AS (
          UPDATE ai_suggestions SET status = 'failed', completed_at = ${now.toISOString()}::timestamptz
          WHERE id = ${holdId} AND status = 'pending'
          RETURNING key_id, credit_day
        )
        UPDATE credit_usage SET used = credit_usage.used - 1
        FROM released
        WHERE credit_usage.key_id = released.key_id AND credit_usage.day = released.credit_day AND credit_usage.used > 0
        RETURNING credit_usage.used`,
  );
  return result.length > 0;
}

/** Refunds holds of `keyId` on `day` that outlived any request; returns how many credits came back. */
export async function reclaimExpiredHolds(db: Db, keyId: string, day: string, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - HOLD_TTL_MS).toISOString();
  const result = await rows<{ n: number }>(
    db,
    sql`WITH expired AS (
          UPDATE ai_suggestions SET status = 'expired', completed_at = ${now.toISOString()}::timestamptz
          WHERE key_id = ${keyId}::uuid AND credit_day = ${day}::date AND status = 'pending' AND created_at < ${cutoff}::timestamptz
          RETURNING id
        ), n AS (SELECT count(*)::int AS n FROM expired)
        UPDATE credit_usage SET used = greatest(0, credit_usage.used - n.n)
        FROM n
        WHERE credit_usage.key_id = ${keyId}::uuid AND credit_usage.day = ${day}::date AND n.n > 0
        RETURNING n.n`,
  );
  return result[0] ? Number(result[0].n) : 0;
}

/**
 * Turns the hold into a spent credit; call it in the transaction that writes the suggestion's event. False when
 * the hold is no longer pending (reclaimed as expired): then nothing may be charged or announced.
 */
export async function confirmHold(tx: Db, holdId: string, values: Partial<typeof aiSuggestions.$inferInsert>): Promise<boolean> {
  const done = await tx
    .update(aiSuggestions)
    .set({ ...values, status: 'done' })
    .where(and(eq(aiSuggestions.id, holdId), eq(aiSuggestions.status, 'pending')))
    .returning({ id: aiSuggestions.id });
  return done.length > 0;
}
