import { eq, sql } from 'drizzle-orm';
import { clients, organizations, sequencerSnapshotEmails, sequencerSnapshots } from '../../schema';
import { writeAudit } from '../agency/audit';
import { rows, type Db } from '../db/types';
import { notFound } from '../errors';
import { entryValue } from '../suppression/values';
import { dayIn } from './day';

/** The most addresses one snapshot holds: a sending tool's active campaigns of one client, with room to spare. */
export const MAX_SNAPSHOT_EMAILS = 100_000;

/**
 * The admin's PUT /clients/{client_id}/sequencer-snapshot: the sending tool's latest daily list of who is in a
 * campaign replaces the client's previous one whole (only the latest is ever checked). Addresses are normalised
 * and deduplicated; a malformed one refuses the snapshot naming it (a half-applied snapshot would silently let
 * people be mailed twice). Delete, set-based insert (unnest), the snapshot row and the audit row commit together.
 */
export async function replaceSequencerSnapshot(db: Db, input: { clientId: string; day?: string; emails: readonly string[]; now: Date }) {
  const [client] = await db
    .select({ id: clients.id, orgId: clients.orgId, timezone: organizations.timezone })
    .from(clients)
    .innerJoin(organizations, eq(organizations.id, clients.orgId))
    .where(eq(clients.id, input.clientId));
  if (!client) throw notFound('client');
  const emails = new Set<string>();
  input.emails.forEach((raw, i) => emails.add(entryValue('email', raw, `emails[${i}]`)));
  const day = input.day ?? dayIn(client.timezone, input.now);
  const list = [...emails];
  await db.transaction(async (tx) => {
    // Replacements of one client's snapshot run one after the other: two interleaved delete-then-insert pairs
    // would collide on the primary key or leave a mix of both lists.
    await tx.select({ id: clients.id }).from(clients).where(eq(clients.id, client.id)).for('no key update');
    await tx.delete(sequencerSnapshotEmails).where(eq(sequencerSnapshotEmails.clientId, client.id));
    if (list.length > 0) {
      await rows(tx, sql`insert into ${sequencerSnapshotEmails} (client_id, email) select ${client.id}::uuid, e from unnest(${sql.param(list)}::text[]) as e`);
    }
    await tx
      .insert(sequencerSnapshots)
      .values({ clientId: client.id, orgId: client.orgId, day, count: list.length, updatedAt: input.now })
      .onConflictDoUpdate({ target: sequencerSnapshots.clientId, set: { day, count: list.length, updatedAt: input.now } });
    await writeAudit(tx, { orgId: client.orgId, actor: 'admin', action: 'sequencer_snapshot.replaced', target: `client:${client.id}`, detail: { day, count: list.length }, at: input.now });
  });
  return { snapshot: { day, count: list.length } };
}
