import type { Operation } from '../../../lib/agency/operation';
import { approveReplyOp } from '../tools/approve_reply';
import { getReplyOp } from '../tools/get_reply';
import { getWeeklyReportsOp } from '../tools/get_weekly_reports';
import { listPendingRepliesOp } from '../tools/list_pending_replies';
import { rejectReplyOp } from '../tools/reject_reply';
import { sendReplyOp } from '../tools/send_reply';
import { skipReplyOp } from '../tools/skip_reply';

/**
 * The reply tools: the core reply routes' verbs under the key's reply scopes (no second send path). Each entry's
 * REST face is the existing core route (`rest: 'core'`); route and tool build their answer with the same lib function.
 */
export const REPLY_OPERATIONS = [
  listPendingRepliesOp,
  getReplyOp,
  sendReplyOp,
  approveReplyOp,
  rejectReplyOp,
  skipReplyOp,
  getWeeklyReportsOp,
] as unknown as Operation[];
