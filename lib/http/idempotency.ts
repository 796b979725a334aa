import { and, eq, lt, or, isNull, sql } from 'drizzle-orm';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { idempotencyKeys } from '../../schema';
import { sha256Hex } from '../crypto/secrets';
import { ApiError } from '../errors';
import type { AppEnv } from './env';

/** A claim older than this is taken to belong to a request that died; the verb's own state keeps a re-run safe. */
const ABANDONED_AFTER_MS = 60_000;
const KEY_SHAPE = /^[\x21-\x7e]{1,255}$/;

export type Outcome = { status: number; body: unknown };

/**
 * Runs a write at most once per `Idempotency-Key` (per API key and route): a retry with the same key and the
 * same request gets the first answer back (`Idempotent-Replayed: true`) and runs nothing; the same key with a
 * different request is a 409. Answers that should be retried (429, 5xx, thrown errors) are not stored.
 */
export async function idempotent(c: Context<AppEnv>, route: string, request: unknown, run: () => Promise<Outcome>) {
  const idemKey = c.req.header('idempotency-key');
  const respond = (o: Outcome) => c.json(o.body as object, o.status as ContentfulStatusCode);
  if (idemKey === undefined) return respond(await run());
  if (!KEY_SHAPE.test(idemKey)) throw new ApiError('validation_error', 'Idempotency-Key: 1 to 255 printable ASCII characters');

  const { db, clock } = c.get('services');
  const keyId = c.get('auth').keyId;
  const requestHash = await sha256Hex(JSON.stringify(request ?? null));
  const now = clock.now();
  const same = and(eq(idempotencyKeys.keyId, keyId), eq(idempotencyKeys.route, route), eq(idempotencyKeys.idemKey, idemKey));

  const claimed = await db
    .insert(idempotencyKeys)
    .values({ keyId, route, idemKey, requestHash, createdAt: now })
    .onConflictDoNothing()
    .returning({ k: idempotencyKeys.idemKey });
  if (claimed.length === 0) {
    const [prior] = await db.select().from(idempotencyKeys).where(same);
    if (prior && prior.requestHash !== requestHash) {
      throw new ApiError('idempotency_conflict', 'this Idempotency-Key was used with a different request');
    }
    if (prior && prior.status !== null) {
      c.header('Idempotent-Replayed', 'true');
      return respond({ status: prior.status, body: prior.response });
    }
    // In flight elsewhere, unless that claim was abandoned: then take it over atomically.
    const taken = await db
      .update(idempotencyKeys)
      .set({ createdAt: now })
      .where(and(same, isNull(idempotencyKeys.status), or(lt(idempotencyKeys.createdAt, new Date(now.getTime() - ABANDONED_AFTER_MS)))))
      .returning({ k: idempotencyKeys.idemKey });
    if (taken.length === 0) throw new ApiError('idempotency_conflict', 'a request with this Idempotency-Key is still in progress');
  }

  let outcome: Outcome;
  try {
    outcome = await run();
  } catch (err) {
    const final = err instanceof ApiError && err.status < 500 && err.status !== 429;
    if (final) {
      const e = err as ApiError;
      await db.update(idempotencyKeys).set({ status: e.status, response: { error: { code: e.code, message: e.message }, ...e.extra.body } }).where(same);
    } else {
      await db.delete(idempotencyKeys).where(same);
    }
    throw err;
  }
  if (outcome.status >= 500 || outcome.status === 429) await db.delete(idempotencyKeys).where(same);
  else await db.update(idempotencyKeys).set({ status: outcome.status, response: sql`${JSON.stringify(outcome.body)}::jsonb` }).where(same);
  return respond(outcome);
}
