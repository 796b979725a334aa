import { newGroup } from '../../lib/http/env';
import { registerGetReply } from './get_reply';
import { registerListLeads } from './list_leads';
import { registerUpdateLead } from './update_lead';
import { registerApproveReply } from './approve_reply';
import { registerListReplies } from './list_replies';
import { registerRejectReply } from './reject_reply';
import { registerSendReply } from './send_reply';
import { registerSkipReply } from './skip_reply';

/** Leads and replies: the lead list, a reply with its thread, lead updates (and later governed sending). */
export const leadsGroup = newGroup();
registerListLeads(leadsGroup);
registerGetReply(leadsGroup);
registerUpdateLead(leadsGroup);
// The reply list and (status=queued) the review queue of governed sending: one path, the scope follows the status.
registerListReplies(leadsGroup);
// Governed sending (core §3): send, approve, reject, skip.
registerSendReply(leadsGroup);
registerApproveReply(leadsGroup);
registerRejectReply(leadsGroup);
registerSkipReply(leadsGroup);
