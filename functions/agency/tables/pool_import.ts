import type { Operation } from '../../../lib/agency/operation';
import { importLeadsOp } from '../tools/import_leads';
import { listImportsOp } from '../tools/list_imports';
import { updateLeadsOp } from '../tools/update_leads';

/** The lead pool's way in: imports (the one pipeline CSV, tools and the bridge share), their history, manual enrichment. */
export const POOL_IMPORT_OPERATIONS = [importLeadsOp, updateLeadsOp, listImportsOp] as unknown as Operation[];
