// The organization's credit balance (agency-operator.md §4 "Prices"): paid agency tools charge it through one
// function, inside the transaction of the change they pay for.
//
// A charge is a ledger row unique by (organization, reference) plus the balance moved in the same transaction:
// a retried step that charges the same reference again finds the row and charges nothing; of concurrent charges of
// one reference the unique index lets exactly one through. The key's daily credit limit counts in credit_usage,
// the table the AI suggestions already count in, so one key has one daily budget across both.
import { sql } from 'drizzle-orm';
import type { Db } from '../db/types';
import { rows } from '../db/types';
import { ApiError } from '../errors';
import { secondsUntilUtcMidnight, utcDay } from './balance';

export type Charge = {
  orgId: string;
  key: { keyId: string; dailyCreditLimit: number } | null;
  /** What is paid for, unique per organization: `<tool>:<token or step id>`; a repeat charges nothing. */
  reference: string;
  amount: number;
  reason: string;
  now: Date;
};

export type ChargeResult = { charged: boolean; amount: number; balance: number };

/** Charges `amount` credits once per reference; throws insufficient_credits or daily_credit_limit_exceeded. */
export async function chargeCredits(tx: Db, c: Charge): Promise<ChargeResult> {
  if (!Number.isInteger(c.amount) || c.amount < 0) throw new Error(`credit amount must be a whole number >= 0, got ${c.amount}`);
  const claimed = await rows<{ id: string }>(
    tx,
    sql`INSERT INTO credit_ledger (org_id, key_id, reference, amount, balance_after, reason, at)
        VALUES (${c.orgId}::uuid, ${c.key?.keyId ?? null}::uuid, ${c.reference}, ${-c.amount}, 0, ${c.reason}, ${c.now.toISOString()}::timestamptz)
        ON CONFLICT (org_id, reference) DO NOTHING RETURNING id`,
  );
  if (claimed.length === 0) return { charged: false, amount: 0, balance: await balanceOf(tx, c.orgId) };
  const [moved] = await rows<{ credits: number }>(
    tx,
    sql`UPDATE organizations SET credits = credits - ${c.amount}::int WHERE id = ${c.orgId}::uuid AND credits >= ${c.amount}::int RETURNING credits`,
  );
  if (!moved) {
    const balance = await balanceOf(tx, c.orgId);
    throw new ApiError('insufficient_credits', `this needs ${c.amount} credits and the organization has ${balance}`, { body: { credits_needed: c.amount, balance } });
  }
  if (c.key && c.amount > 0) await countAgainstKey(tx, c.key, c.amount, c.now);
  await tx.execute(sql`UPDATE credit_ledger SET balance_after = ${moved.credits}::int WHERE id = ${claimed[0].id}::uuid`);
  return { charged: true, amount: c.amount, balance: Number(moved.credits) };
}

async function countAgainstKey(tx: Db, key: { keyId: string; dailyCreditLimit: number }, amount: number, now: Date) {
  const day = utcDay(now);
  const counted = await rows<{ used: number }>(
    tx,
    sql`INSERT INTO credit_usage (key_id, day, used)
        SELECT ${key.keyId}::uuid, ${day}::date, ${amount}::int WHERE ${amount}::int <= ${key.dailyCreditLimit}::int
        ON CONFLICT (key_id, day) DO UPDATE SET used = credit_usage.used + ${amount}::int
          WHERE credit_usage.used + ${amount}::int <= ${key.dailyCreditLimit}::int
        RETURNING used`,
  );
  if (counted.length === 0) {
    throw new ApiError('daily_credit_limit_exceeded', `this needs ${amount} credits and the key's daily credit limit of ${key.dailyCreditLimit} does not allow it today`, {
      retryAfter: secondsUntilUtcMidnight(now),
    });
  }
}

/** What the key may still spend today (UTC day, as countAgainstKey counts it). */
export async function dailyRoomOf(db: Db, key: { keyId: string; dailyCreditLimit: number }, now: Date): Promise<number> {
  const [row] = await rows<{ used: number }>(db, sql`SELECT used FROM credit_usage WHERE key_id = ${key.keyId}::uuid AND day = ${utcDay(now)}::date`);
  return Math.max(0, key.dailyCreditLimit - Number(row?.used ?? 0));
}

export async function balanceOf(db: Db, orgId: string): Promise<number> {
  const [row] = await rows<{ credits: number }>(db, sql`SELECT credits FROM organizations WHERE id = ${orgId}::uuid`);
  return Number(row?.credits ?? 0);
}
