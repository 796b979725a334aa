import type { Operation } from '../../../lib/agency/operation';
import { allocateBatchOp } from '../tools/allocate_batch';
import { approveBatchOp } from '../tools/approve_batch';
import { batchStatusOp } from '../tools/batch_status';
import { reviewApproveOp } from '../tools/review_approve';
import { reviewBatchOp } from '../tools/review_batch';
import { reviewEditMailOp } from '../tools/review_edit_mail';
import { reviewLeadOp } from '../tools/review_lead';
import { reviewRejectOp } from '../tools/review_reject';
import { skipBatchOp } from '../tools/skip_batch';

/** Batches and review (Studio, issue 18): compose a batch from the pool, review its written leads, approve or skip it. */
export const BATCH_OPERATIONS = [
  batchStatusOp,
  allocateBatchOp,
  reviewBatchOp,
  reviewLeadOp,
  reviewApproveOp,
  reviewEditMailOp,
  reviewRejectOp,
  approveBatchOp,
  skipBatchOp,
] as unknown as Operation[];
