// allocate_batch's two steps: the preview composes the batch from the pool and writes nothing; the confirm stores
// the batch, its leads (review pending, not written) and moves those leads to `in_batch`, with its audit row.
import { and, eq, sql } from 'drizzle-orm';
import { batches, batchLeads, poolLeads, segments } from '../../schema';
import { findClient } from '../agency/clients/view';
import { runTwoStep, type PreviewAnswer, type TwoStepDef } from '../agency/confirm';
import type { AgencyCall } from '../agency/operation';
import type { Db } from '../db/types';
import { ApiError, notFound } from '../errors';
import { LeadFilterSchema, type LeadFilter } from '../pool/filters';
import { checkFilter } from '../pool/list_leads';
import { CONTACTED_STATUSES } from '../pool/not_contacted';
import { composeBatch, type Candidate, type Exclusion } from './compose';
import { refuseOpenBatch } from './guards';
import { batchView, type BatchView } from './view';

export const DEFAULT_BATCH_SIZE = 100;
const SAMPLE = 10;

export type AllocateInput = { client_id: string; segment_id?: string; filter?: LeadFilter; size?: number; confirm_token?: string };
export type AllocatePreview = {
  leads: number;
  size: number;
  available: number;
  excluded: Record<Exclusion, number>;
  sample: Candidate[];
  segment_id: string | null;
  filter: LeadFilter;
};

/** The filter the batch is composed with: a saved segment's, the one given, or none (the whole pool). */
async function filterOf(db: Db, scope: { orgId: string; clientId: string }, input: AllocateInput): Promise<LeadFilter> {
  if (input.segment_id && input.filter) throw new ApiError('validation_error', 'segment_id: give a saved segment or a filter, not both');
  if (input.segment_id) {
    const [row] = await db
      .select({ filter: segments.filter })
      .from(segments)
      .where(and(eq(segments.id, input.segment_id), eq(segments.clientId, scope.clientId), eq(segments.orgId, scope.orgId)));
    if (!row) throw notFound('segment');
    // A segment saved before a filter changed still reads safely (as list_segments reads it).
    const parsed = LeadFilterSchema.safeParse(row.filter);
    return parsed.success ? parsed.data : {};
  }
  const filter = input.filter ?? {};
  await checkFilter(db, scope, filter);
  return filter;
}

const allocateDef: TwoStepDef<AllocateInput, AllocatePreview, { batch: BatchView }> = {
  tool: 'allocate_batch',
  async preview(call, input, db) {
    const scope = { orgId: call.auth.orgId, clientId: input.client_id };
    // In the confirm the client row is locked: two allocations of one client take turns, the second sees the first.
    await findClient(db, scope.orgId, scope.clientId, db !== call.services.db);
    await refuseOpenBatch(db, scope, 'a client has one open batch at a time: finish it (approve_batch, then start_campaign) or skip it (skip_batch) first');
    const filter = await filterOf(db, scope, input);
    const size = input.size ?? DEFAULT_BATCH_SIZE;
    const c = await composeBatch(db, scope, filter, size);
    const preview: AllocatePreview = {
      leads: c.chosen.length,
      size,
      available: c.available,
      excluded: c.excluded,
      sample: c.chosen.slice(0, SAMPLE),
      segment_id: input.segment_id ?? null,
      filter,
    };
    return {
      preview,
      state: { leads: c.chosen.map((l) => l.id), filter },
      credits: 0,
      ...(c.chosen.length === 0 && {
        blockedBy: 'conflict' as const,
        blockedMessage: 'no lead of this filter can be allocated (see excluded): widen the filter or add leads to the pool',
      }),
    };
  },
  async apply(call, input, tx, p) {
    const scope = { orgId: call.auth.orgId, clientId: input.client_id };
    // The ids the confirm's own composition chose (the state a token is bound to), not only the preview's sample.
    const ids = (p.state as { leads: string[] }).leads;
    const [batch] = await tx
      .insert(batches)
      .values({
        orgId: scope.orgId,
        clientId: scope.clientId,
        status: 'allocated',
        segmentId: p.preview.segment_id,
        filter: p.preview.filter,
        size: p.preview.size,
        createdBy: call.actor,
        createdAt: call.now,
        updatedAt: call.now,
      })
      .returning();
    await tx.insert(batchLeads).values(ids.map((id, i) => ({ batchId: batch.id, poolLeadId: id, orgId: scope.orgId, clientId: scope.clientId, position: i + 1, updatedAt: call.now })));
    // Conditional on the status the composition read: a lead that another write took meanwhile (a push, a
    // removal) is not moved, and the whole allocation is refused rather than stored short.
    const contacted = sql.join(CONTACTED_STATUSES.map((s) => sql`${s}`), sql`, `);
    const moved = await tx
      .update(poolLeads)
      .set({ status: 'in_batch', updatedAt: call.now })
      .where(
        and(
          eq(poolLeads.orgId, scope.orgId),
          eq(poolLeads.clientId, scope.clientId),
          sql`${poolLeads.id} = any(${sql.param(ids)}::uuid[])`,
          sql`${poolLeads.status} not in (${contacted})`,
        ),
      )
      .returning({ id: poolLeads.id });
    if (moved.length !== ids.length) {
      throw new ApiError('conflict', `${ids.length - moved.length} of the chosen leads changed since the preview; ask for a new preview`);
    }
    return {
      result: { batch: await batchView(tx, batch) },
      audit: {
        action: 'batch.allocated',
        target: `batch:${batch.id}`,
        detail: { client_id: scope.clientId, leads: ids.length, size: p.preview.size, segment_id: p.preview.segment_id, filter: p.preview.filter, excluded: p.preview.excluded },
      },
    };
  },
};

/** Both calls of allocate_batch: the composed preview (nothing stored), or the allocated batch. */
export async function allocateBatch(call: AgencyCall, input: AllocateInput): Promise<PreviewAnswer<AllocatePreview> | { batch: BatchView }> {
  const out = await runTwoStep(call, allocateDef, input);
  return out.confirmed ? out.result : out.answer;
}
