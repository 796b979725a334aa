import { desc, eq } from 'drizzle-orm';
import { inboundSources, type InboundSourceProvider } from '../../schema';
import { randomToken, sha256Hex, timingSafeEqualStr } from '../crypto/secrets';
import type { Db } from '../db/types';
import { recordDecision } from '../decisions/record';
import { notFound } from '../errors';
import { isUuid } from '../ids';

// Inbound sources: the reply webhooks of an organization's sending tools (admin API creates them). The secret is
// shown once; only its SHA-256 is kept, like API keys, so a database leak does not let anyone post replies.

export type InboundSource = typeof inboundSources.$inferSelect;

const SECRET_PREFIX = 'insec_';
const hashSecret = (secret: string) => sha256Hex(secret);

/** The address a sending tool posts its reply webhook to. */
export const inboundUrl = (baseUrl: string, sourceId: string) => `${baseUrl.replace(/\/+$/, '')}/v1/inbound/${sourceId}`;

export const sourceView = (s: InboundSource, baseUrl: string) => ({
  id: s.id,
  provider: s.provider,
  name: s.name,
  url: inboundUrl(baseUrl, s.id),
  status: s.status,
  secret_hint: s.secretHint,
  last_received_at: s.lastReceivedAt?.toISOString() ?? null,
  created_at: s.createdAt.toISOString(),
});

const DEFAULT_NAMES: Record<InboundSourceProvider, string> = {
  instantly: 'Instantly replies',
  smartlead: 'Smartlead replies',
  emailbison: 'EmailBison replies',
  generic: 'Replies',
};

export async function createInboundSource(db: Db, a: { orgId: string; provider: InboundSourceProvider; name?: string; baseUrl: string; now: Date }) {
  const secret = `${SECRET_PREFIX}${randomToken(32)}`;
  const secretHash = await hashSecret(secret);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(inboundSources)
      .values({ orgId: a.orgId, provider: a.provider, name: a.name ?? DEFAULT_NAMES[a.provider], secretHash, secretHint: secret.slice(-4), createdAt: a.now, updatedAt: a.now })
      .returning();
    // Who may put replies into this organization is a governance decision; the trail never holds the secret.
    await recordDecision(tx, { orgId: a.orgId, actor: 'admin', action: 'inbound_source.created', detail: { source_id: row.id, provider: row.provider, name: row.name }, at: a.now });
    return { source: sourceView(row, a.baseUrl), secret };
  });
}

export async function listInboundSources(db: Db, orgId: string, baseUrl: string) {
  const found = await db.select().from(inboundSources).where(eq(inboundSources.orgId, orgId)).orderBy(desc(inboundSources.createdAt), desc(inboundSources.id));
  return found.map((s) => sourceView(s, baseUrl));
}

/** Pause or resume a source, or rename it; the owner's change is in the Decision Trail. */
export async function updateInboundSource(db: Db, a: { sourceId: string; input: { name?: string; status?: 'active' | 'paused' }; baseUrl: string; now: Date }) {
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(inboundSources).where(eq(inboundSources.id, a.sourceId)).for('no key update');
    if (!current) throw notFound('inbound source');
    const [row] = await tx
      .update(inboundSources)
      .set({ name: a.input.name ?? current.name, status: a.input.status ?? current.status, updatedAt: a.now })
      .where(eq(inboundSources.id, current.id))
      .returning();
    if (row.status !== current.status || row.name !== current.name) {
      await recordDecision(tx, {
        orgId: row.orgId,
        actor: 'admin',
        action: 'inbound_source.updated',
        detail: { source_id: row.id, from: { status: current.status, name: current.name }, to: { status: row.status, name: row.name } },
        at: a.now,
      });
    }
    return sourceView(row, a.baseUrl);
  });
}

/**
 * The source a delivery is for, when the presented secret is its secret; null otherwise (unknown source, wrong
 * or missing secret: the caller cannot tell which). Hashes are compared in constant time.
 */
export async function authenticateSource(db: Db, sourceId: string, presented: string | undefined): Promise<InboundSource | null> {
  if (!presented || !isUuid(sourceId)) return null;
  const [source] = await db.select().from(inboundSources).where(eq(inboundSources.id, sourceId));
  const presentedHash = await hashSecret(presented);
  if (!source) return null;
  return timingSafeEqualStr(presentedHash, source.secretHash) ? source : null;
}
