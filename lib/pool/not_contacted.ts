import { eq, sql, type SQL } from 'drizzle-orm';
import { leads, poolLeads, sequencerSnapshotEmails, sequencerSnapshots } from '../../schema';
import type { PoolLead } from './view';

/**
 * Pool statuses that mean "contacted or out of the pool". `in_batch` counts as in an own Studio campaign: a batch is
 * what a campaign is made of, and skip_batch hands its leads back to the pool as `new`, which makes them "not
 * contacted" again. `pushed` is in a campaign at the sequencer; `replied` answered one; `removed` left the pool.
 */
export const CONTACTED_STATUSES = ['removed', 'in_batch', 'pushed', 'replied'] as const;

/**
 * "Not contacted" (agency spec §2) as one condition over pool_leads, for a WHERE of the same statement:
 * - still in the pool and in no own Studio campaign: the status is none of CONTACTED_STATUSES;
 * - not replied: no core `leads` row of the organization has the address (core leads are prospects who replied
 *   to any of its campaigns; emails are stored lower-cased on both sides; leads_org_email_idx);
 * - not in a campaign at the sending tool: the address is not in the client's latest daily snapshot
 *   (sequencer_snapshot_emails holds only the latest: the admin PUT replaces it whole; its primary key).
 * A lead without an email (waiting for the waterfall) cannot be in a reply or a snapshot: only its status counts.
 */
export function notContactedWhere(scope: { orgId: string; clientId: string }): SQL {
  const statuses = sql.join(
    CONTACTED_STATUSES.map((s) => sql`${s}`),
    sql`, `,
  );
  return sql`(${poolLeads.status} not in (${statuses}) and (${poolLeads.email} is null or (
    not exists (select 1 from ${leads} where ${leads.orgId} = ${scope.orgId}::uuid and ${leads.email} = ${poolLeads.email})
    and not exists (select 1 from ${sequencerSnapshotEmails} where ${sequencerSnapshotEmails.clientId} = ${scope.clientId}::uuid and ${sequencerSnapshotEmails.email} = ${poolLeads.email}))))`;
}

/** The day of the client's latest snapshot as a column of the same statement (null: none stored yet). */
export const snapshotDayColumn = (clientId: string) =>
  sql<string | null>`(select ${sequencerSnapshots.day} from ${sequencerSnapshots} where ${eq(sequencerSnapshots.clientId, clientId)})`;

/** What a not-contacted answer says it checked: every source, the snapshot only when one is stored. */
export function contactCheckOf(snapshotDay: string | null): NonNullable<PoolLead['contact_check']> {
  return { pool: true, studio_campaigns: true, replies: true, sequencer_snapshot: { checked: snapshotDay !== null, day: snapshotDay } };
}
