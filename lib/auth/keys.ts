import { eq } from 'drizzle-orm';
import { apiKeys, organizations } from '../../schema';
import type { OrgFeatures } from '../../schema';
import { randomToken, sha256Hex } from '../crypto/secrets';
import type { Db } from '../db/types';
import type { Limits } from '../limits/port';
import { errorText, type Logger } from '../log';

export type KeyPrefix = 'live' | 'partner';

/** Who is calling: everything a request needs about its key, resolved in one query and cached. */
export type AuthContext = {
  keyId: string;
  keyName: string;
  prefix: KeyPrefix;
  orgId: string;
  orgName: string;
  features: OrgFeatures;
  clientId: string | null;
  scopes: string[];
  autonomyLevel: number;
  rateLimitPerMinute: number;
  dailyCreditLimit: number;
  readOnly: boolean;
  /** `agency`: an agency tool server key (agency-operator.md §5). */
  kind: 'api' | 'agency';
  /** A demo organization: agency write tools answer demo_org. */
  orgDemo: boolean;
};

export function generateApiKey(prefix: KeyPrefix): string {
  return `svc_${prefix}_${randomToken(32, 'base62')}`;
}

const KEY_SHAPE = /^svc_(live|partner)_[A-Za-z0-9]{20,64}$/;

export const hashApiKey = (key: string) => sha256Hex(key);

/**
 * Resolved keys of this process (or isolate), each for at most 30 s and tagged with the version stamp of its
 * organization it is known to be at least as new as. An admin change (features, a key's grant, revocation) bumps
 * that stamp in the limits store after its commit; every request reads the stamp in its limiter round trip, and
 * an entry whose tag differs is resolved again (lib/http/auth.ts). Without the store, the 30 s lifetime bounds it.
 */
export class KeyCache {
  private entries = new Map<string, { auth: AuthContext; expires: number; stamp: string | undefined }>();
  /** Per organization, the latest stamp a limiter read returned here, and when (in `noted` order). */
  private stamps = new Map<string, { stamp: string; at: number }>();
  private noted = 0;
  constructor(private ttlMs = 30_000) {}
  get(hash: string, now: number) {
    const e = this.entries.get(hash);
    if (!e) return undefined;
    if (e.expires <= now) {
      this.entries.delete(hash);
      return undefined;
    }
    return e;
  }
  set(hash: string, auth: AuthContext, now: number, stamp?: string) {
    if (this.entries.size > 50_000) this.entries.clear();
    this.entries.set(hash, { auth, expires: now + this.ttlMs, stamp });
  }
  /** Records a stamp just read from the store; returns a mark for `stampBefore`. */
  noteStamp(orgId: string, stamp: string) {
    if (this.stamps.size > 50_000) this.stamps.clear();
    this.stamps.set(orgId, { stamp, at: ++this.noted });
  }
  /** A mark taken before a database read: `stampBefore(org, mark)` then gives only stamps read before it. */
  mark() {
    return this.noted;
  }
  /**
   * The organization's stamp as read before `mark`: a row read from the database after that is at least as new.
   * A stamp read later could already count a change the row was read too early to see, so it is not offered.
   */
  stampBefore(orgId: string, mark: number): string | undefined {
    const s = this.stamps.get(orgId);
    return s && s.at <= mark ? s.stamp : undefined;
  }
  /** Drops the organization's entries: the process that made a change sees it on the next request. */
  evictOrg(orgId: string) {
    for (const [hash, e] of this.entries) if (e.auth.orgId === orgId) this.entries.delete(hash);
  }
  clear() {
    this.entries.clear();
    this.stamps.clear();
  }
}

/** The name of an organization's version stamp in the limits store. */
export const orgStamp = (orgId: string) => `org:${orgId}`;

/** A presented key as this request knows it: from the cache or the database, with the stamp it is tagged with. */
export type ResolvedKey = { hash: string; auth: AuthContext; stamp: string | undefined };

export async function resolveApiKey(db: Db, cache: KeyCache, presented: string, now: number): Promise<ResolvedKey | null> {
  if (!KEY_SHAPE.test(presented)) return null;
  const hash = await hashApiKey(presented);
  const cached = cache.get(hash, now);
  if (cached) return { hash, auth: cached.auth, stamp: cached.stamp };
  return loadApiKey(db, cache, hash, now);
}

/**
 * Reads a key from the database and caches it. `stamp` is a stamp read before this read (so the row is at least
 * that new); without one, the stamp the organization had before the read began, if this process knows it.
 */
export async function loadApiKey(db: Db, cache: KeyCache, hash: string, now: number, stamp?: string): Promise<ResolvedKey | null> {
  const mark = cache.mark();
  const [row] = await db
    .select({ key: apiKeys, org: { name: organizations.name, features: organizations.features, demo: organizations.demo } })
    .from(apiKeys)
    .innerJoin(organizations, eq(organizations.id, apiKeys.orgId))
    .where(eq(apiKeys.keyHash, hash))
    .limit(1);
  if (!row || row.key.revokedAt) return null;
  const auth: AuthContext = {
    keyId: row.key.id,
    keyName: row.key.name,
    prefix: row.key.prefix,
    orgId: row.key.orgId,
    orgName: row.org.name,
    features: row.org.features,
    clientId: row.key.clientId,
    scopes: row.key.scopes,
    autonomyLevel: row.key.autonomyLevel,
    rateLimitPerMinute: row.key.rateLimitPerMinute,
    dailyCreditLimit: row.key.dailyCreditLimit,
    readOnly: row.key.readOnly,
    kind: row.key.kind,
    orgDemo: row.org.demo,
  };
  const tag = stamp ?? cache.stampBefore(auth.orgId, mark);
  cache.set(hash, auth, now, tag);
  return { hash, auth, stamp: tag };
}

/** What an admin change needs to make existing keys see it: this process's cache and the shared stamps. */
export type KeyDirectory = { keyCache: KeyCache; limits: Pick<Limits, 'bumpStamp'>; log: Pick<Logger, 'warn'> };

/**
 * Call after a change to what an organization's keys resolve to has committed (features, a key's grant or
 * revocation): this process drops them at once, every other process on its next request of that organization
 * (the bumped stamp). If the limits store is down, others see it when their 30 s entries expire.
 */
export async function keysChanged(directory: KeyDirectory | undefined, orgId: string) {
  if (!directory) return;
  directory.keyCache.evictOrg(orgId);
  try {
    await directory.limits.bumpStamp(orgStamp(orgId));
  } catch (err) {
    directory.log.warn('key change not announced to other processes; they see it within 30 s', { orgId, error: errorText(err) });
  }
}
