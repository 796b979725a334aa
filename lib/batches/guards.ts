// The refusals every batch tool shares. A conflict carries the current batch (agency-operator.md §4: `conflict`
// comes with the current object), so the caller sees what to do without another read.
import type { Db } from '../db/types';
import { ApiError } from '../errors';
import { batchView, latestBatch, openBatch, type BatchRow } from './view';

type Scope = { orgId: string; clientId: string };

/** allocate_batch: refused while the client has an open batch. */
export async function refuseOpenBatch(db: Db, scope: Scope, why: string) {
  const open = await openBatch(db, scope.orgId, scope.clientId);
  if (open) throw new ApiError('conflict', `batch ${open.id} is open (${open.status}): ${why}`, { body: { batch: await batchView(db, open) } });
}

/**
 * The open batch a change applies to, or 409 conflict naming the latest batch's status (pushing and pushed batches
 * are past every change here; a skipped one is history). `lock` in a confirm: the batch row stays locked.
 */
export async function requireOpenBatch(db: Db, scope: Scope, lock: boolean): Promise<BatchRow> {
  const open = await openBatch(db, scope.orgId, scope.clientId, lock);
  if (open) return open;
  const latest = await latestBatch(db, scope.orgId, scope.clientId);
  const why = latest ? `its latest batch ${latest.id} is ${latest.status}` : 'it has no batch yet';
  throw new ApiError('conflict', `the client has no open batch (${why}): compose one with allocate_batch`, { body: { batch: latest ? await batchView(db, latest) : null } });
}

/** Review changes are for a batch being reviewed: an approved batch is what start_campaign pushes, as approved. */
export async function refuseApproved(db: Db, batch: BatchRow) {
  if (batch.status === 'approved') {
    throw new ApiError('conflict', `batch ${batch.id} is approved, so its review is closed; to change it, skip it (skip_batch) and allocate again`, {
      body: { batch: await batchView(db, batch) },
    });
  }
}
