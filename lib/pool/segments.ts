import { and, asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { segments } from '../../schema';
import { writeAudit } from '../agency/audit';
import { findClient } from '../agency/clients/view';
import type { AgencyCall } from '../agency/operation';
import type { Db } from '../db/types';
import { ApiError, notFound } from '../errors';
import { LeadFilterSchema, type LeadFilter } from './filters';
import { checkColumns, checkFilter, countPoolLeads, pagePoolLeads, type Page } from './list_leads';

export const SegmentSchema = z.object({
  id: z.string(),
  name: z.string(),
  filter: z.record(z.string(), z.unknown()).describe('the list_leads filters this segment applies'),
  leads: z.number().int().describe('leads of the pool the filter holds now'),
  created_at: z.string(),
  updated_at: z.string(),
});

type SegmentRow = typeof segments.$inferSelect;

/** A stored filter read back through the schema, so a segment saved before a filter changed still reads safely. */
function storedFilter(row: SegmentRow): LeadFilter {
  const parsed = LeadFilterSchema.safeParse(row.filter);
  return parsed.success ? parsed.data : {};
}

async function segmentView(db: Db, scope: { orgId: string; clientId: string }, row: SegmentRow) {
  return {
    id: row.id,
    name: row.name,
    filter: row.filter,
    leads: await countPoolLeads(db, scope, storedFilter(row)),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/**
 * save_segment: a filter over the pool saved by name. The same name (exact, after trimming) replaces that
 * segment's filter and keeps its id, so repeating a call leaves one segment as the first call left it.
 */
export async function saveSegment(call: AgencyCall, input: { client_id: string; name: string; filter: LeadFilter }) {
  const { db } = call.services;
  const scope = { orgId: call.auth.orgId, clientId: input.client_id };
  await findClient(db, scope.orgId, scope.clientId);
  await checkFilter(db, scope, input.filter);
  const name = input.name.trim();
  const row = await db.transaction(async (tx) => {
    const [saved] = await tx
      .insert(segments)
      .values({ orgId: scope.orgId, clientId: scope.clientId, name, filter: input.filter, createdBy: call.actor, createdAt: call.now, updatedAt: call.now })
      .onConflictDoUpdate({ target: [segments.clientId, segments.name], set: { filter: input.filter, updatedAt: call.now } })
      .returning();
    await writeAudit(tx, { orgId: scope.orgId, actor: call.actor, action: 'segment.saved', target: `segment:${saved.id}`, detail: { client_id: scope.clientId, name, filter: input.filter }, at: call.now });
    return saved;
  });
  return { segment: await segmentView(db, scope, row) };
}

/** list_segments: the client's segments by name, each with how many leads its filter holds now. */
export async function listSegments(call: AgencyCall, input: { client_id: string }) {
  const { db } = call.services;
  const scope = { orgId: call.auth.orgId, clientId: input.client_id };
  await findClient(db, scope.orgId, scope.clientId);
  const rows = await db
    .select()
    .from(segments)
    .where(and(eq(segments.clientId, scope.clientId), eq(segments.orgId, scope.orgId)))
    .orderBy(asc(segments.name), asc(segments.id));
  return { segments: await Promise.all(rows.map((r) => segmentView(db, scope, r))) };
}

/**
 * segment_results: one page of a saved segment's leads (`segment_id`) or of filters given inline, never both:
 * mixing them would leave unclear which country or band wins. `segment` is null for inline filters; `filter` is
 * what was applied either way.
 */
export async function segmentResults(call: AgencyCall, input: { client_id: string; segment_id?: string; inline: LeadFilter } & Page) {
  const { db } = call.services;
  const scope = { orgId: call.auth.orgId, clientId: input.client_id };
  await findClient(db, scope.orgId, scope.clientId);
  if (input.segment_id && Object.keys(input.inline).length > 0) {
    throw new ApiError('validation_error', `segment_id: give a saved segment or inline filters (${Object.keys(input.inline).join(', ')}), not both`);
  }
  let segment: Awaited<ReturnType<typeof segmentView>> | null = null;
  let filter = input.inline;
  if (input.segment_id) {
    const [row] = await db
      .select()
      .from(segments)
      .where(and(eq(segments.id, input.segment_id), eq(segments.clientId, scope.clientId), eq(segments.orgId, scope.orgId)));
    if (!row) throw notFound('segment');
    filter = storedFilter(row);
    segment = await segmentView(db, scope, row);
  } else {
    await checkFilter(db, scope, filter);
  }
  await checkColumns(db, scope.clientId, input.columns ?? []);
  const page = await pagePoolLeads(db, scope, filter, input);
  return { segment, filter, ...page };
}
