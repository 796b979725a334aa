import { and, asc, desc, eq, ilike, sql } from 'drizzle-orm';
import { z } from 'zod';
import { suppressions } from '../../schema';
import { writeAudit } from '../agency/audit';
import { findClient } from '../agency/clients/view';
import type { AgencyCall } from '../agency/operation';
import { rows, type Db } from '../db/types';
import { ApiError } from '../errors';
import { parseEntries, type ParsedEntries } from './suppression_entries';

export const SuppressionSchema = z.object({
  id: z.string(),
  kind: z.enum(['email', 'domain']),
  value: z.string(),
  reason: z.enum(['opt_out', 'manual', 'import']),
  detail: z.string().nullable().describe('the note given with the import (or the opt-out phrase)'),
  created_at: z.string(),
  created_by: z.string(),
});

const countsShape = {
  received: z.number().int().describe('entries sent'),
  valid: z.number().int().describe('distinct valid entries after normalising'),
  emails: z.number().int(),
  domains: z.number().int(),
  duplicates_in_input: z.number().int().describe('entries that repeat an earlier one after normalising'),
  already_listed: z.number().int().describe("valid entries already on this client's never-mail list"),
  invalid_count: z.number().int(),
  invalid: z.array(z.object({ index: z.number().int(), entry: z.string(), reason: z.string() })).describe('the first 100 refused entries and why'),
};
export const PreviewCountsSchema = z.object({ ...countsShape, would_add: z.number().int() });
export const ImportCountsSchema = z.object({ ...countsShape, added: z.number().int() });

const counts = (p: ParsedEntries, alreadyListed: number) => ({
  received: p.received,
  valid: p.values.length,
  emails: p.emails,
  domains: p.domains,
  duplicates_in_input: p.duplicatesInInput,
  already_listed: alreadyListed,
  invalid_count: p.invalidCount,
  invalid: p.invalid,
});

type SuppressionRow = typeof suppressions.$inferSelect;
const suppressionView = (r: SuppressionRow) => ({
  id: r.id,
  kind: r.kind,
  value: r.value,
  reason: r.reason,
  detail: r.detail,
  created_at: r.createdAt.toISOString(),
  created_by: r.createdBy,
});

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** list_suppressions: this client's never-mail entries, newest first, optionally those whose value holds `q`. */
export async function listSuppressions(call: AgencyCall, input: { client_id: string; q?: string; limit: number; offset: number }) {
  const { db } = call.services;
  const { orgId } = call.auth;
  await findClient(db, orgId, input.client_id);
  const fetched = await db
    .select()
    .from(suppressions)
    .where(
      and(
        eq(suppressions.orgId, orgId),
        eq(suppressions.clientId, input.client_id),
        input.q ? ilike(suppressions.value, `%${escapeLike(input.q.toLowerCase())}%`) : undefined,
      ),
    )
    .orderBy(desc(suppressions.createdAt), asc(suppressions.id))
    .limit(input.limit + 1)
    .offset(input.offset);
  const more = fetched.length > input.limit;
  return { suppressions: fetched.slice(0, input.limit).map(suppressionView), next_offset: more ? input.offset + input.limit : null };
}

/** How many of these values the client's list already holds (one statement on suppressions_org_value_idx). */
async function countListed(db: Db, scope: { orgId: string; clientId: string }, p: ParsedEntries): Promise<number> {
  if (p.values.length === 0) return 0;
  const [row] = await rows<{ n: number }>(
    db,
    sql`select count(*)::int as n from unnest(${sql.param(p.kinds)}::text[], ${sql.param(p.values)}::text[]) as e(kind, value)
        where exists (select 1 from ${suppressions} s where s.org_id = ${scope.orgId}::uuid and s.client_id = ${scope.clientId}::uuid and s.kind = e.kind and s.value = e.value)`,
  );
  return Number(row.n);
}

/** preview_suppressions_import: what an import of these entries would do. Stores nothing. */
export async function previewSuppressionsImport(call: AgencyCall, input: { client_id: string; entries: string[] }) {
  const { db } = call.services;
  const scope = { orgId: call.auth.orgId, clientId: input.client_id };
  await findClient(db, scope.orgId, scope.clientId);
  const parsed = parseEntries(input.entries);
  const listed = await countListed(db, scope, parsed);
  return { ...counts(parsed, listed), would_add: parsed.values.length - listed };
}

/**
 * import_suppressions: the entries join the client's never-mail list in one statement (unnest of two arrays,
 * ON CONFLICT DO NOTHING on suppressions_scope_value_uq), with one audit row, in one transaction. Refused entries
 * are reported and skipped; a call with no valid entry at all is refused (400 naming the first), since it can
 * only be a mistake (a wrong column pasted). A repeat adds nothing: already_listed counts what was there.
 */
export async function importSuppressions(call: AgencyCall, input: { client_id: string; entries: string[]; reason?: string }) {
  const { db } = call.services;
  const scope = { orgId: call.auth.orgId, clientId: input.client_id };
  await findClient(db, scope.orgId, scope.clientId);
  const parsed = parseEntries(input.entries);
  if (parsed.values.length === 0) {
    const first = parsed.invalid[0];
    throw new ApiError('validation_error', `entries: none is an email address or a domain (entries[${first.index}] ${JSON.stringify(first.entry)}: ${first.reason})`, {
      body: { invalid_count: parsed.invalidCount, invalid: parsed.invalid },
    });
  }
  const detail = input.reason?.trim() || null;
  const added = await db.transaction(async (tx) => {
    const [row] = await rows<{ n: number }>(
      tx,
      sql`with added as (
            insert into ${suppressions} (org_id, client_id, kind, value, reason, detail, created_by, created_at)
            select ${scope.orgId}::uuid, ${scope.clientId}::uuid, e.kind, e.value, 'import', ${detail}, ${call.actor}, ${call.now.toISOString()}::timestamptz
            from unnest(${sql.param(parsed.kinds)}::text[], ${sql.param(parsed.values)}::text[]) as e(kind, value)
            on conflict do nothing
            returning 1)
          select count(*)::int as n from added`,
    );
    const n = Number(row.n);
    await writeAudit(tx, {
      orgId: scope.orgId,
      actor: call.actor,
      action: 'suppressions.imported',
      target: `client:${scope.clientId}`,
      detail: { received: parsed.received, valid: parsed.values.length, added: n, invalid: parsed.invalidCount, reason: detail },
      at: call.now,
    });
    return n;
  });
  return { ...counts(parsed, parsed.values.length - added), added };
}
