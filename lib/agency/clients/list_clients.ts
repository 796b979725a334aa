import { asc, eq } from 'drizzle-orm';
import { clients } from '../../../schema';
import type { Db } from '../../db/types';
import { clientView, findClient } from './view';

/** The organization's clients, oldest first (the order an agency added them). */
export async function listClients(db: Db, orgId: string) {
  const list = await db.select().from(clients).where(eq(clients.orgId, orgId)).orderBy(asc(clients.createdAt), asc(clients.id));
  return list.map(clientView);
}

export async function getClient(db: Db, orgId: string, clientId: string) {
  return clientView(await findClient(db, orgId, clientId));
}
