import type { Operation } from '../../../lib/agency/operation';
import { estimateFindEmailsOp } from '../tools/estimate_find_emails';
import { runFindEmailsOp } from '../tools/run_find_emails';

/** The email waterfall: estimate, then run round by round with one token. */
export const WATERFALL_OPERATIONS = [estimateFindEmailsOp, runFindEmailsOp] as unknown as Operation[];
