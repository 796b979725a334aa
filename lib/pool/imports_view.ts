import { and, desc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { leadImports } from '../../schema';
import { findClient } from '../agency/clients/view';
import type { Db } from '../db/types';
import { notFound } from '../errors';
import { importView, type ImportView } from './import';

export const ImportSchema = z.object({
  id: z.string(),
  name: z.string().describe('import name; bridge imports are "<tool> <YYYY-MM-DD>" in the organization\'s timezone'),
  source: z.string().describe('csv, tool (import_leads) or bridge:<tool>'),
  day: z.string().describe('YYYY-MM-DD (organization timezone) the import began'),
  added: z.number().int(),
  duplicates: z.number().int().describe('same email (or person and company) earlier in this import, or already in the pool'),
  already_mailed: z.number().int().describe('in the sending tool\'s snapshot, in an own Studio campaign, replied, or on the never-mail list'),
  waiting_for_email: z.number().int().describe('a person and a company but no email: stored, waiting for the email waterfall'),
  invalid: z.number().int().describe('neither an email nor a person and a company, or an email that is not an address'),
});

export const ImportCountsSchema = ImportSchema.pick({ added: true, duplicates: true, already_mailed: true, waiting_for_email: true, invalid: true });

export const LIST_IMPORTS_MAX = 200;

/** list_imports: the client's import history, newest first, in pages (`next_offset` null on the last). */
export async function listImports(db: Db, q: { orgId: string; clientId: string; limit?: number; offset?: number }): Promise<{ imports: ImportView[]; next_offset: number | null }> {
  await findClient(db, q.orgId, q.clientId);
  const limit = q.limit ?? 50;
  const offset = q.offset ?? 0;
  const found = await db
    .select()
    .from(leadImports)
    .where(and(eq(leadImports.orgId, q.orgId), eq(leadImports.clientId, q.clientId)))
    .orderBy(desc(leadImports.createdAt), desc(leadImports.id))
    .limit(limit + 1)
    .offset(offset);
  return { imports: found.slice(0, limit).map(importView), next_offset: found.length > limit ? offset + limit : null };
}

/** One of the client's imports (any source), or not_found. */
export async function findImportView(db: Db, q: { orgId: string; clientId: string; importId: string }): Promise<ImportView> {
  const [row] = await db
    .select()
    .from(leadImports)
    .where(and(eq(leadImports.id, q.importId), eq(leadImports.orgId, q.orgId), eq(leadImports.clientId, q.clientId)));
  if (!row) throw notFound('import');
  return importView(row);
}
