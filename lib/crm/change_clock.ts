// The change clock behind `updated_at` and the CRM feed's guarantee (core §4 rule 2: a client that stores each
// run's start time and passes it as `updated_since` next run never misses a change).
//
// The classic miss: a writer stamps a row with a time taken before it commits (its transaction's start, or
// `new Date()` in the app), a sync run starts after that time and reads before the commit, and the next run asks
// for rows changed since the run's start: the row's stamp is older, so the change is never delivered.
//
// The protocol here makes that impossible without assuming anything about how long transactions take:
// - Writers (every transaction that changes a lead) stamp as their LAST step: they take the organization's change
//   lock exclusively (a transaction-scoped advisory lock, released only by COMMIT or ROLLBACK), then read the
//   clock in a new statement and write the stamp. So a stamp `s` is always taken while its writer holds the lock,
//   and the writer keeps the lock until its commit is visible.
// - Readers of the feed take the same lock in shared mode before each page (and let it go), then read the page in
//   a new statement, whose snapshot is taken after that. Granting the shared lock at time `q` means no writer holds
//   it at `q`, so every writer that stamped before `q` has already committed: the page's snapshot contains every
//   change stamped before `q`, and every change it does not contain is stamped after `q`.
// Each page also reports `server_time`: the database clock, read (truncated to milliseconds, like the stamps) while
// that shared lock is held. A writer that stamps a change the page's snapshot does not contain took the lock after
// the page released it, so it read the clock after `server_time` was read: its stamp is at or after `server_time`
// (truncation keeps the order, and the monotonic step below only moves stamps up). So a client that stores the
// `server_time` of its run's first page and passes it as `updated_since` next run (`updated_at >= updated_since`)
// never misses a change, whatever its own clock says (pages read later have later `server_time`s, so the first
// page's covers the whole run). Nothing is widened; what comes again is only what changed during the run (or in the
// millisecond of `server_time`), and sync clients upsert by id. Stamps are monotonic per organization (never below the latest
// stamp + 1 ms), so a later change never moves a lead's `updated_at` back. Writers of one organization serialise
// only from their stamp to their COMMIT (callers stamp last, so that is a statement or two); a page of its feed
// waits at most that long before reading.
import { sql } from 'drizzle-orm';
import { rows, type Db } from '../db/types';

/** First key of the two-int advisory lock: keeps these locks apart from any other use of advisory locks. */
const CHANGE_LOCK_SPACE = 0x4352_4d01; // "CRM" + 1

/**
 * @deprecated `updated_since` is no longer widened: clients store the list's `server_time` instead of reading their
 * own clock. 0, kept for the benchmark and the integration sync test until they move to `server_time`.
 */
export const UPDATED_SINCE_SKEW_MS = 0;

const lockKey = (orgId: string) => sql`${CHANGE_LOCK_SPACE}::int, hashtext(${orgId}::text)`;

/**
 * Stamps the given leads of one organization as changed now and returns the stamp. Call it as the last statement
 * before COMMIT, in the transaction that changed them, and only for leads that transaction has already locked
 * (FOR UPDATE, or the upsert that wrote them): holding the change lock while waiting for a row lock could deadlock.
 * `crm` also moves `crm_updated_at` (a CRM field or note changed).
 */
export async function stampLeadChange(tx: Db, orgId: string, leadIds: string[], opts: { crm?: boolean } = {}): Promise<Date> {
  if (leadIds.length === 0) throw new Error('stampLeadChange: no leads to stamp');
  await tx.execute(sql`select pg_advisory_xact_lock(${lockKey(orgId)})`);
  // A new statement, so its snapshot holds every stamp committed before we got the lock. Milliseconds, because
  // the API speaks JavaScript ISO times and `if_updated_at` must compare equal to what was read.
  const ids = sql.join(
    leadIds.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  const [row] = await rows<{ at: Date | string }>(
    tx,
    sql`with stamp as (
          select greatest(date_trunc('milliseconds', clock_timestamp()),
                          (select max(updated_at) from leads where org_id = ${orgId}::uuid) + interval '1 millisecond') as at
        )
        update leads set updated_at = stamp.at${opts.crm ? sql`, crm_updated_at = stamp.at` : sql``}
        from stamp
        where leads.org_id = ${orgId}::uuid and leads.id in (${ids})
        returning stamp.at as at`,
  );
  if (!row) throw new Error('stampLeadChange: none of the leads exists in this organization');
  return new Date(row.at);
}

/**
 * Waits until every change stamped so far in the organization has committed (the reader half of the protocol
 * above): taking the shared lock waits out each writer between its stamp and its COMMIT. A statement started after
 * this returns sees every change stamped before the lock was granted; writers stamping later get later stamps.
 * Returns the database clock read while the lock was held (milliseconds): the page's `server_time`, at or before
 * every stamp the page cannot see. The lock is released at once, so the page read that follows never holds
 * writers up.
 */
export async function awaitCommittedStamps(db: Db, orgId: string): Promise<Date> {
  return db.transaction(async (tx) => {
    // The function scan takes the lock before the target list reads the clock: one statement, one round trip.
    const [row] = await rows<{ at: Date | string }>(
      tx,
      sql`select date_trunc('milliseconds', clock_timestamp()) as at from pg_advisory_xact_lock_shared(${lockKey(orgId)}) as locked`,
    );
    return new Date(row.at);
  });
}
