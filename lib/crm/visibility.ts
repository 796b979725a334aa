import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { PortalPermissions } from '../../schema';

// core §2 "Visibility of CRM leads": exactly what the client sees in its portal. Each visible classification has
// its portal switch; anything else (ooo, spam, not yet classified, a value we do not know) is never visible.
const PORTAL_SWITCH = {
  hot: 'show_hot',
  warm: 'show_warm',
  cold: 'show_cold',
  not_interested: 'show_not_interested',
} as const satisfies Record<string, keyof PortalPermissions>;

export type VisibleClassification = keyof typeof PORTAL_SWITCH;
export const CRM_CLASSIFICATIONS = Object.keys(PORTAL_SWITCH) as VisibleClassification[];

const switchOf = (classification: string | null | undefined) =>
  classification && Object.hasOwn(PORTAL_SWITCH, classification) ? PORTAL_SWITCH[classification as VisibleClassification] : null;

/** Whether a lead with this classification shows in the portal of a client with these permissions. */
export function visibleToClient(classification: string | null | undefined, portal: PortalPermissions): boolean {
  const flag = switchOf(classification);
  return flag !== null && portal[flag] === true;
}

/** The classifications a client's portal shows (the SQL side of visibleToClient). */
export function visibleClassifications(portal: PortalPermissions): VisibleClassification[] {
  return CRM_CLASSIFICATIONS.filter((c) => visibleToClient(c, portal));
}

/**
 * The SQL twin of visibleToClient over a lead's classification column and its client's `portal` jsonb column,
 * built from the same switch table, so a page query needs no separate read of the portal.
 */
export function visibleSql(classification: AnyPgColumn, portal: AnyPgColumn): SQL {
  const whens = CRM_CLASSIFICATIONS.map((c) => sql`when ${c} then coalesce((${portal} ->> ${PORTAL_SWITCH[c]})::boolean, false)`);
  return sql`(case ${classification} ${sql.join(whens, sql` `)} else false end)`;
}
