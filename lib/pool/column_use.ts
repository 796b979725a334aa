import { and, eq } from 'drizzle-orm';
import { clients, poolColumns } from '../../schema';
import { writeAudit } from '../agency/audit';
import type { Db } from '../db/types';
import { notFound } from '../errors';
import { columnView, normaliseKey, type ColumnView } from './columns';

/**
 * A person (the owner's app, the admin API) switches a custom column on or off for writing: the writer uses only
 * columns switched on, so nothing an assistant or a table invented reaches a mail unseen.
 */
export async function setColumnUse(db: Db, a: { clientId: string; key: string; useForWriting: boolean; now: Date }): Promise<ColumnView> {
  return db.transaction(async (tx) => {
    const [client] = await tx.select({ orgId: clients.orgId }).from(clients).where(eq(clients.id, a.clientId));
    if (!client) throw notFound('client');
    const key = normaliseKey(a.key) ?? a.key;
    const [row] = await tx
      .update(poolColumns)
      .set({ useForWriting: a.useForWriting, updatedAt: a.now })
      .where(and(eq(poolColumns.clientId, a.clientId), eq(poolColumns.orgId, client.orgId), eq(poolColumns.key, key)))
      .returning();
    if (!row) throw notFound('column');
    await writeAudit(tx, {
      orgId: client.orgId,
      actor: 'admin',
      action: 'pool_column.updated',
      target: `client:${a.clientId}`,
      detail: { key, use_for_writing: a.useForWriting },
      at: a.now,
    });
    return columnView(row);
  });
}
