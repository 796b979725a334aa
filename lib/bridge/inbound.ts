// POST /v1/bridge/inbound/{hook_id}: rows from a client's table tool into its lead pool (agency spec §4 "Bridge
// inbound", agency-operator.md §7). Checks in the order a caller can act on them: who (401), whether the bridge may
// run (403, 423), the request's size (413) and shape (400), the client's row rate (429), then one transaction that
// imports through the pool's one pipeline and stamps the hook. A refused request writes nothing.
import { eq } from 'drizzle-orm';
import { bridgeHooks, organizations } from '../../schema';
import { ApiError } from '../errors';
import type { LimitCheck, LimitResult } from '../limits/port';
import { errorText } from '../log';
import { importLeadRows } from '../pool/import';
import type { Services } from '../services';
import { authenticateHook, type BridgeHook } from './hooks';
import { parseBridgeBody } from './rows';

/** Rows per minute per client (agency spec §8), weighted by the rows of each request. */
export const BRIDGE_ROWS_PER_MINUTE = 1200;
/** Refused calls (unknown hook, wrong secret) per address and minute: guessing secrets stays slow. */
const FAILED_PER_IP_PER_MINUTE = 120;

export type ImportToday = { name: string; added: number; duplicates: number; already_mailed: number; waiting_for_email: number; invalid: number };
export type BridgeAnswer = { ok: boolean; received: number; sent_to_pool: number; unusable: number; import_today: ImportToday };



export async function receiveBridgeRows(services: Services, d: { hookId: string; secret: string | undefined; rawBody: string; clientIp: string }): Promise<BridgeAnswer> {
  const hook = await authenticateHook(services.db, d.hookId, d.secret);
  if (!hook) {
    await countRows(services, { name: 'ip', id: d.clientIp, limit: FAILED_PER_IP_PER_MINUTE, windowSec: 60 }, 'ip_rate_limit_exceeded', 'too many refused requests from this address');
    throw new ApiError('unauthorized', 'unknown bridge hook or wrong secret');
  }
  await requireBridgeOpen(services, hook);
  const parsed = parseBridgeBody(d.rawBody);
  await countRows(
    services,
    { name: 'bridge_rows', id: hook.clientId, limit: BRIDGE_ROWS_PER_MINUTE, windowSec: 60, weight: parsed.received },
    'rate_limit_exceeded',
    `more than ${BRIDGE_ROWS_PER_MINUTE} rows per minute for this client`,
  );
  if (parsed.rows.length === 0) throw noUsableRow(parsed.problems);

  const now = services.clock.now();
  const ctx = { services, orgId: hook.orgId, clientId: hook.clientId, actor: `bridge:${hook.toolName}`, now };
  return services.db.transaction(async (tx) => {
    const result = await importLeadRows(tx, ctx, parsed.rows.map((r) => r.row), { kind: 'bridge', toolName: hook.toolName });
    const invalid = result.rows.filter((o) => o.outcome === 'invalid');
    if (invalid.length === parsed.rows.length) {
      // Thrown inside the transaction: the day's import, if this call would have opened it, rolls back with it.
      throw noUsableRow([...parsed.problems, ...invalid.map((o) => `row ${parsed.rows[o.index].at}: ${o.reason ?? 'needs an email, or a person and a company'}`)]);
    }
    await tx.update(bridgeHooks).set({ lastReceivedAt: now }).where(eq(bridgeHooks.id, hook.id));
    if (!result.import) throw new Error('importLeadRows returned no import for a stored bridge import');
    const { name, added, duplicates, already_mailed, waiting_for_email, invalid: invalidToday } = result.import;
    const unusable = parsed.received - parsed.rows.length + invalid.length;
    return {
      ok: true,
      received: parsed.received,
      sent_to_pool: parsed.received - unusable,
      unusable,
      import_today: { name, added, duplicates, already_mailed, waiting_for_email, invalid: invalidToday },
    };
  });
}

function noUsableRow(problems: string[]) {
  const shown = problems.slice(0, 5).join('; ');
  const more = problems.length > 5 ? `; and ${problems.length - 5} more` : '';
  return new ApiError('no_usable_row', `no usable row: each row needs an email, or a person's name and a company${shown ? ` (${shown}${more})` : ''}`);
}

/** The hook's switch, the organization's Studio module, then the Studio pause switch (agency-operator.md §7). */
async function requireBridgeOpen(services: Pick<Services, 'db'>, hook: BridgeHook) {
  const [org] = await services.db.select({ features: organizations.features, studioPaused: organizations.studioPaused }).from(organizations).where(eq(organizations.id, hook.orgId));
  if (!hook.enabled) throw new ApiError('bridge_not_enabled', 'this bridge hook is disabled; an owner or admin can enable it again');
  if (!org?.features.studio) throw new ApiError('bridge_not_enabled', 'the bridge needs the Studio module, which this organization does not have');
  if (org.studioPaused) throw new ApiError('studio_paused', 'Studio is paused for this organization; send the rows again once it is resumed');
}

/**
 * Counts `check` (rows weigh what they number). Fails open when the limits store is down: rows a table sends are
 * lost to the client if refused, and the database, not Redis, is what the import needs.
 */
async function countRows(services: Pick<Services, 'limits' | 'clock' | 'log'>, check: LimitCheck, code: 'rate_limit_exceeded' | 'ip_rate_limit_exceeded', message: string) {
  let counted: LimitResult[];
  try {
    counted = await services.limits.check([check]);
  } catch (err) {
    services.log.warn('bridge limits unavailable; failing open', { error: errorText(err) });
    return;
  }
  const [r] = counted;
  if (r.success) return;
  const retryAfter = Math.max(1, Math.ceil((r.reset - services.clock.now().getTime()) / 1000));
  throw new ApiError(code, message, { retryAfter });
}
