import { newGroup } from '../../lib/http/env';
import { registerGetReply } from './get_reply';
import { registerListLeads } from './list_leads';
import { registerUpdateLead } from './update_lead';

/** Leads and replies: the lead list, a reply with its thread, lead updates (and later governed sending). */
export const leadsGroup = newGroup();
registerListLeads(leadsGroup);
registerGetReply(leadsGroup);
registerUpdateLead(leadsGroup);
