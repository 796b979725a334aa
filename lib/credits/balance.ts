import { and, eq } from 'drizzle-orm';
import { creditUsage } from '../../schema';
import type { Db } from '../db/types';

/** Credits are counted per key and UTC day. */
export const utcDay = (now: Date) => now.toISOString().slice(0, 10);

/** Seconds until the next UTC midnight: the Retry-After of a spent daily limit. */
export function secondsUntilUtcMidnight(now: Date): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((next - now.getTime()) / 1000));
}

export async function creditsRemaining(db: Db, key: { keyId: string; dailyCreditLimit: number }, now: Date): Promise<number> {
  const [row] = await db
    .select({ used: creditUsage.used })
    .from(creditUsage)
    .where(and(eq(creditUsage.keyId, key.keyId), eq(creditUsage.day, utcDay(now))));
  return Math.max(0, key.dailyCreditLimit - (row?.used ?? 0));
}
