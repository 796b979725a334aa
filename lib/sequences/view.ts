import { and, desc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { sequenceVersions } from '../../schema';
import type { Db } from '../db/types';
import { SequenceStepSchema } from './steps';

export const SequenceSchema = z.object({
  client_id: z.string(),
  version: z.number().int().describe('0: the client has no sequence yet'),
  steps: z.array(SequenceStepSchema),
  updated_at: z.string().nullable(),
  updated_by: z.string().nullable().describe('who saved this version: mcp:<key>, key:<key> or a person'),
});
export type SequenceView = z.infer<typeof SequenceSchema>;

export type SequenceVersionRow = typeof sequenceVersions.$inferSelect;

/** The version in force (the highest), or undefined for a client that never saved one. */
export async function currentVersion(db: Db, orgId: string, clientId: string): Promise<SequenceVersionRow | undefined> {
  const [row] = await db
    .select()
    .from(sequenceVersions)
    .where(and(eq(sequenceVersions.orgId, orgId), eq(sequenceVersions.clientId, clientId)))
    .orderBy(desc(sequenceVersions.version))
    .limit(1);
  return row;
}

/** A client without a sequence reads as version 0 with no steps: an empty sequence, not a missing resource. */
export const sequenceView = (clientId: string, row: SequenceVersionRow | undefined): SequenceView =>
  row
    ? { client_id: clientId, version: row.version, steps: row.steps, updated_at: row.createdAt.toISOString(), updated_by: row.createdBy }
    : { client_id: clientId, version: 0, steps: [], updated_at: null, updated_by: null };
