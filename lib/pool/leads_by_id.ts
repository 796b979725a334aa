import { and, eq, inArray } from 'drizzle-orm';
import { poolLeads } from '../../schema';
import type { Db } from '../db/types';
import { ApiError } from '../errors';
import type { PoolLeadRow } from './view';

/**
 * The named leads of one client's pool, in the order named (duplicates dropped). An id that is not a lead of this
 * client (another client's, another organization's, or none) is 404 naming it, so a tool never half-acts on a list.
 */
export async function leadsByIds(db: Db, q: { orgId: string; clientId: string; leadIds: readonly string[] }): Promise<PoolLeadRow[]> {
  const ids = [...new Set(q.leadIds.map((id) => id.toLowerCase()))];
  const found = await db
    .select()
    .from(poolLeads)
    .where(and(eq(poolLeads.orgId, q.orgId), eq(poolLeads.clientId, q.clientId), inArray(poolLeads.id, ids)));
  const byId = new Map(found.map((r) => [r.id, r]));
  const unknown = ids.filter((id) => !byId.has(id));
  if (unknown.length) {
    throw new ApiError('not_found', `lead_ids: no lead ${unknown.slice(0, 10).join(', ')}${unknown.length > 10 ? ` (and ${unknown.length - 10} more)` : ''} in this client's pool`, {
      body: { unknown_lead_ids: unknown },
    });
  }
  return ids.map((id) => byId.get(id)!);
}
