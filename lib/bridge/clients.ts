import { eq } from 'drizzle-orm';
import { clients } from '../../schema';
import type { Db } from '../db/types';
import { notFound } from '../errors';

/** The admin API addresses a client by its id alone (ADMIN_TOKEN spans organizations); unknown → 404. */
export async function requireClient(db: Db, clientId: string) {
  const [client] = await db.select({ id: clients.id, orgId: clients.orgId }).from(clients).where(eq(clients.id, clientId));
  if (!client) throw notFound('client');
  return client;
}
