import { and, eq, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { AuthContext } from './auth/keys';

/** Whose data a call may touch: an organization, narrowed to one client for client-locked keys. */
export type Tenant = { orgId: string; clientId: string | null };

export const tenantOf = (auth: Pick<AuthContext, 'orgId' | 'clientId'>): Tenant => ({ orgId: auth.orgId, clientId: auth.clientId });

/** The tenant filter every query carries: the org column, and the client column when the key is locked. */
export function tenantFilter(t: Tenant, orgCol: AnyPgColumn, clientCol?: AnyPgColumn): SQL {
  const org = eq(orgCol, t.orgId);
  if (!t.clientId) return org;
  if (!clientCol) throw new Error('client-locked tenant needs a client column to filter on');
  return and(org, eq(clientCol, t.clientId))!;
}
