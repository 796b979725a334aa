import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { clients } from '../../../schema';
import type { Db } from '../../db/types';
import { notFound } from '../../errors';

export const PlaybookSchema = z.object({
  version: z.number().int(),
  instructions: z.string(),
  tone: z.string().nullable(),
  signature: z.string().nullable(),
  rules: z.array(z.string()),
});

/** A client as the agency API shows it (agency-operator.md §4). */
export const ClientSchema = z.object({
  id: z.string(),
  name: z.string(),
  playbook: PlaybookSchema.nullable(),
  auto_write: z.boolean(),
  auto_protect: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ClientView = z.infer<typeof ClientSchema>;

export type ClientRow = typeof clients.$inferSelect;

export const clientView = (c: ClientRow): ClientView => ({
  id: c.id,
  name: c.name,
  playbook: c.playbook ? { version: c.playbookVersion, ...c.playbook } : null,
  auto_write: c.autoWrite,
  auto_protect: c.autoProtect,
  created_at: c.createdAt.toISOString(),
  updated_at: c.updatedAt.toISOString(),
});

/**
 * The organization's client, or not_found (another organization's client is indistinguishable from none).
 * `lock`: read under a row lock, for a change that merges with what it read.
 */
export async function findClient(db: Db, orgId: string, clientId: string, lock = false): Promise<ClientRow> {
  const q = db.select().from(clients).where(and(eq(clients.id, clientId), eq(clients.orgId, orgId)));
  const [row] = lock ? await q.for('no key update') : await q;
  if (!row) throw notFound('client');
  return row;
}
