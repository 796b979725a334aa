// Inbound bridge hooks: one per client and table tool (admin API). The secret is shown once; only its SHA-256 is
// kept, like API keys and inbound sources, so a database leak does not let anyone put rows into a pool.
import { eq } from 'drizzle-orm';
import { bridgeHooks } from '../../schema';
import { writeAudit } from '../agency/audit';
import { randomToken, sha256Hex, timingSafeEqualStr } from '../crypto/secrets';
import type { Db } from '../db/types';
import { notFound } from '../errors';
import { requireClient } from './clients';
import { isUuid } from '../ids';

export type BridgeHook = typeof bridgeHooks.$inferSelect;

const SECRET_PREFIX = 'brsec_';

/** Where the table tool posts its rows: {studio_api_url}/v1/bridge/inbound/{hook_id} (agency-operator.md §1). */
export const bridgeUrl = (baseUrl: string, hookId: string) => `${baseUrl.replace(/\/+$/, '')}/v1/bridge/inbound/${hookId}`;

export const hookView = (h: BridgeHook, baseUrl: string) => ({
  id: h.id,
  client_id: h.clientId,
  tool_name: h.toolName,
  enabled: h.enabled,
  url: bridgeUrl(baseUrl, h.id),
  last_received_at: h.lastReceivedAt?.toISOString() ?? null,
  created_at: h.createdAt.toISOString(),
});
export type HookView = ReturnType<typeof hookView>;

export async function createBridgeHook(db: Db, a: { clientId: string; toolName: string; enabled?: boolean; baseUrl: string; now: Date }) {
  const client = await requireClient(db, a.clientId);
  const secret = `${SECRET_PREFIX}${randomToken(32)}`;
  const secretHash = await sha256Hex(secret);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(bridgeHooks)
      .values({ orgId: client.orgId, clientId: client.id, toolName: a.toolName, secretHash, enabled: a.enabled ?? true, createdAt: a.now })
      .returning();
    // Who may put rows into a client's pool is recorded; the audit row never holds the secret.
    await writeAudit(tx, { orgId: client.orgId, actor: 'admin', action: 'bridge_hook.created', target: row.id, detail: { client_id: client.id, tool_name: row.toolName, enabled: row.enabled }, at: a.now });
    return { hook: hookView(row, a.baseUrl), secret };
  });
}

export async function updateBridgeHook(db: Db, a: { hookId: string; enabled: boolean; baseUrl: string; now: Date }) {
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(bridgeHooks).where(eq(bridgeHooks.id, a.hookId)).for('no key update');
    if (!current) throw notFound('bridge hook');
    if (current.enabled === a.enabled) return hookView(current, a.baseUrl);
    const [row] = await tx.update(bridgeHooks).set({ enabled: a.enabled }).where(eq(bridgeHooks.id, current.id)).returning();
    await writeAudit(tx, { orgId: row.orgId, actor: 'admin', action: a.enabled ? 'bridge_hook.enabled' : 'bridge_hook.disabled', target: row.id, detail: { client_id: row.clientId, tool_name: row.toolName }, at: a.now });
    return hookView(row, a.baseUrl);
  });
}

/**
 * The hook a request is for, when the presented secret is its secret; null otherwise (unknown hook, wrong or missing
 * secret: the caller cannot tell which). Hashes compared in constant time; the presented one is hashed even for an
 * unknown hook, so the answer takes as long either way.
 */
export async function authenticateHook(db: Db, hookId: string, presented: string | undefined): Promise<BridgeHook | null> {
  if (!presented || !isUuid(hookId)) return null;
  const [hook] = await db.select().from(bridgeHooks).where(eq(bridgeHooks.id, hookId));
  const presentedHash = await sha256Hex(presented);
  if (!hook) return null;
  return timingSafeEqualStr(presentedHash, hook.secretHash) ? hook : null;
}

/** The hook secret: `x-bridge-secret`, else `Authorization: Bearer` (agency spec §5.7). */
export function presentedBridgeSecret(header: (name: string) => string | undefined): string | undefined {
  const direct = header('x-bridge-secret')?.trim();
  if (direct) return direct;
  return /^Bearer\s+(.+)$/i.exec(header('authorization') ?? '')?.[1]?.trim() || undefined;
}
