import { and, eq, gt, inArray, isNull } from 'drizzle-orm';
import { signInLinks, webUsers } from '../../schema';
import { randomToken, sha256Hex } from '../crypto/secrets';
import type { Db } from '../db/types';

/** A sign-in link works for 15 minutes on the service's clock (CLOCK=sim moves it too), once. */
export const SIGN_IN_LINK_TTL_MS = 15 * 60_000;

// The token's shape: 32 random base62 characters (~190 bits). Anything else is refused before a query.
const TOKEN_SHAPE = /^[A-Za-z0-9]{20,64}$/;
export const plausibleToken = (token: string) => TOKEN_SHAPE.test(token);

/** Stores the SHA-256 of a new token (never the token) and returns the token for the link. */
export async function issueSignInLink(db: Db, userId: string, now: Date): Promise<string> {
  const token = randomToken(32);
  await db.insert(signInLinks).values({ userId, tokenHash: await sha256Hex(token), createdAt: now, expiresAt: new Date(now.getTime() + SIGN_IN_LINK_TTL_MS) });
  return token;
}

export type FaceKind = 'portal' | 'desk';

export type LinkState = { ok: true; userId: string } | { ok: false; reason: 'unknown' | 'used' | 'expired' };

/** What a link would do now, without using it (the GET page shows the refusal before offering the button). */
export async function inspectSignInLink(db: Db, token: string, now: Date, kind: FaceKind): Promise<LinkState> {
  if (!plausibleToken(token)) return { ok: false, reason: 'unknown' };
  // A link belongs to one face: a portal link opened at /desk is unknown there (and is not used up).
  const [link] = await db
    .select({ userId: signInLinks.userId, usedAt: signInLinks.usedAt, expiresAt: signInLinks.expiresAt })
    .from(signInLinks)
    .innerJoin(webUsers, eq(webUsers.id, signInLinks.userId))
    .where(and(eq(signInLinks.tokenHash, await sha256Hex(token)), eq(webUsers.kind, kind)));
  if (!link) return { ok: false, reason: 'unknown' };
  if (link.usedAt) return { ok: false, reason: 'used' };
  if (link.expiresAt.getTime() <= now.getTime()) return { ok: false, reason: 'expired' };
  return { ok: true, userId: link.userId };
}

/**
 * Uses the link: one conditional UPDATE, so of two concurrent sign-ins with one link exactly one wins; the loser
 * (and every later try) is told why it lost.
 */
export async function consumeSignInLink(db: Db, token: string, now: Date, kind: FaceKind): Promise<LinkState> {
  if (!plausibleToken(token)) return { ok: false, reason: 'unknown' };
  const hash = await sha256Hex(token);
  const ofThisFace = db.select({ id: webUsers.id }).from(webUsers).where(eq(webUsers.kind, kind));
  const [used] = await db
    .update(signInLinks)
    .set({ usedAt: now })
    .where(and(eq(signInLinks.tokenHash, hash), isNull(signInLinks.usedAt), gt(signInLinks.expiresAt, now), inArray(signInLinks.userId, ofThisFace)))
    .returning({ userId: signInLinks.userId });
  if (used) return { ok: true, userId: used.userId };
  return inspectSignInLink(db, token, now, kind);
}
