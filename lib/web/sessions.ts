import { and, eq, gt, isNull } from 'drizzle-orm';
import { webSessions, webUsers } from '../../schema';
import { randomToken, sha256Hex } from '../crypto/secrets';
import type { Db } from '../db/types';

/** A session ends after 12 hours without a request or 7 days after sign-in, whichever comes first. */
export const SESSION_IDLE_MS = 12 * 3600_000;
export const SESSION_ABSOLUTE_MS = 7 * 24 * 3600_000;
// Activity is written at most once a minute: a page view is not a write.
const TOUCH_EVERY_MS = 60_000;

const SESSION_ID_SHAPE = /^[A-Za-z0-9]{20,64}$/;

export type WebSession = {
  sessionId: string;
  csrfToken: string;
  user: typeof webUsers.$inferSelect;
};

/** A new session for the user: a new random id each sign-in (the cookie), its hash stored, its own CSRF token. */
export async function startSession(db: Db, userId: string, now: Date): Promise<{ cookieValue: string }> {
  const cookieValue = randomToken(32);
  await db.insert(webSessions).values({
    userId,
    idHash: await sha256Hex(cookieValue),
    csrfToken: randomToken(32),
    createdAt: now,
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + SESSION_ABSOLUTE_MS),
  });
  return { cookieValue };
}

/** The live session a cookie value names, or null (unknown, revoked, idle too long, past its absolute end). */
export async function findSession(db: Db, cookieValue: string | undefined, now: Date, kind: 'portal' | 'desk'): Promise<WebSession | null> {
  if (!cookieValue || !SESSION_ID_SHAPE.test(cookieValue)) return null;
  const [row] = await db
    .select({ session: webSessions, user: webUsers })
    .from(webSessions)
    .innerJoin(webUsers, eq(webUsers.id, webSessions.userId))
    .where(
      and(
        eq(webSessions.idHash, await sha256Hex(cookieValue)),
        isNull(webSessions.revokedAt),
        gt(webSessions.expiresAt, now),
        gt(webSessions.lastSeenAt, new Date(now.getTime() - SESSION_IDLE_MS)),
        eq(webUsers.kind, kind),
      ),
    );
  if (!row) return null;
  if (now.getTime() - row.session.lastSeenAt.getTime() >= TOUCH_EVERY_MS) {
    await db.update(webSessions).set({ lastSeenAt: now }).where(eq(webSessions.id, row.session.id));
  }
  return { sessionId: row.session.id, csrfToken: row.session.csrfToken, user: row.user };
}

/** Sign-out (and sign-in over an old session): the session is revoked, not deleted, so its cookie stays dead. */
export async function revokeSession(db: Db, cookieValue: string | undefined, now: Date): Promise<void> {
  if (!cookieValue || !SESSION_ID_SHAPE.test(cookieValue)) return;
  await db.update(webSessions).set({ revokedAt: now }).where(and(eq(webSessions.idHash, await sha256Hex(cookieValue)), isNull(webSessions.revokedAt)));
}

/** Constant-time comparison of the form's CSRF token with the session's. */
export function sameToken(given: unknown, expected: string): boolean {
  if (typeof given !== 'string' || given.length !== expected.length) return false;
  let diff = 0;
  for (let i = 0; i < given.length; i++) diff |= given.charCodeAt(i) ^ expected.charCodeAt(i);
  return diff === 0;
}
