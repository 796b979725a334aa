import { sql } from 'drizzle-orm';
import type { Db } from '../db/types';
import { rows } from '../db/types';

/** Credits are counted per key and UTC day. */
export const utcDay = (now: Date) => now.toISOString().slice(0, 10);

/** Seconds until the next UTC midnight: the Retry-After of a spent daily limit. */
export function secondsUntilUtcMidnight(now: Date): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((next - now.getTime()) / 1000));
}

/** Past this age a pending credit hold cannot belong to a live request (30 s limit, plus generous slack). */
export const HOLD_TTL_MS = 120_000;

/**
 * What the key may still spend today. `used` counts spent credits and holds of suggestions in flight; a hold
 * older than HOLD_TTL_MS belongs to a request that died and is counted as free (lib/credits/meter reclaims it).
 */
export async function creditsRemaining(db: Db, key: { keyId: string; dailyCreditLimit: number }, now: Date): Promise<number> {
  const day = utcDay(now);
  const cutoff = new Date(now.getTime() - HOLD_TTL_MS).toISOString();
  const [row] = await rows<{ used: number; stale: number }>(
    db,
    sql`SELECT
          coalesce((SELECT used FROM credit_usage WHERE key_id = ${key.keyId}::uuid AND day = ${day}::date), 0)::int AS used,
          (SELECT count(*) FROM ai_suggestions
            WHERE key_id = ${key.keyId}::uuid AND credit_day = ${day}::date AND status = 'pending'
              AND created_at < ${cutoff}::timestamptz)::int AS stale`,
  );
  const used = Math.max(0, Number(row?.used ?? 0) - Number(row?.stale ?? 0));
  return Math.max(0, key.dailyCreditLimit - used);
}
