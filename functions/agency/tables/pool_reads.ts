import type { Operation } from '../../../lib/agency/operation';
import { importSuppressionsOp } from '../tools/import_suppressions';
import { listIcpsOp } from '../tools/list_icps';
import { listLeadsOp } from '../tools/list_leads';
import { listSegmentsOp } from '../tools/list_segments';
import { listSuppressionsOp } from '../tools/list_suppressions';
import { previewSuppressionsImportOp } from '../tools/preview_suppressions_import';
import { saveSegmentOp } from '../tools/save_segment';
import { segmentResultsOp } from '../tools/segment_results';

/** Reading the lead pool (leads, ICPs, segments) and the client's never-mail list (Studio). */
export const POOL_READ_OPERATIONS = [
  listLeadsOp,
  listIcpsOp,
  listSuppressionsOp,
  previewSuppressionsImportOp,
  importSuppressionsOp,
  listSegmentsOp,
  saveSegmentOp,
  segmentResultsOp,
] as unknown as Operation[];
