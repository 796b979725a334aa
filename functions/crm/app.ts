import { newGroup } from '../../lib/http/env';
import { registerAddCrmNote } from './add_note';
import { registerGetCrmLead } from './get_lead';
import { registerListCrmLeads } from './list_leads';
import { registerUpdateCrmLead } from './update_lead';

/** The CRM API (core §4): client-locked keys with crm.read / crm.write on organizations with the CRM feature. */
export const crmGroup = newGroup();
registerListCrmLeads(crmGroup);
registerGetCrmLead(crmGroup);
registerUpdateCrmLead(crmGroup);
registerAddCrmNote(crmGroup);
