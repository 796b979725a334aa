import { eq } from 'drizzle-orm';
import { apiKeys, organizations } from '../../schema';
import type { OrgFeatures } from '../../schema';
import { randomToken, sha256Hex } from '../crypto/secrets';
import type { Db } from '../db/types';

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
};

export function generateApiKey(prefix: KeyPrefix): string {
  return `svc_${prefix}_${randomToken(32, 'base62')}`;
}

const KEY_SHAPE = /^svc_(live|partner)_[A-Za-z0-9]{20,64}$/;

export const hashApiKey = (key: string) => sha256Hex(key);

/** Revocation must be visible within 30 s, so a cached identity lives at most that long. */
export class KeyCache {
  private entries = new Map<string, { auth: AuthContext; expires: number }>();
  constructor(private ttlMs = 30_000) {}
  get(hash: string, now: number): AuthContext | undefined {
    const e = this.entries.get(hash);
    if (!e) return undefined;
    if (e.expires <= now) {
      this.entries.delete(hash);
      return undefined;
    }
    return e.auth;
  }
  set(hash: string, auth: AuthContext, now: number) {
    if (this.entries.size > 50_000) this.entries.clear();
    this.entries.set(hash, { auth, expires: now + this.ttlMs });
  }
  clear() {
    this.entries.clear();
  }
}

export async function resolveApiKey(db: Db, cache: KeyCache, presented: string, now: number): Promise<AuthContext | null> {
  if (!KEY_SHAPE.test(presented)) return null;
  const hash = await hashApiKey(presented);
  const cached = cache.get(hash, now);
  if (cached) return cached;
  const [row] = await db
    .select({ key: apiKeys, org: { name: organizations.name, features: organizations.features } })
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
  };
  cache.set(hash, auth, now);
  return auth;
}
