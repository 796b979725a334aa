import { requireAdmin } from '../../lib/http/admin_auth';
import { newGroup } from '../../lib/http/env';
import { registerCampaigns } from './campaigns';
import { registerClients } from './clients';
import { registerDecisions } from './decisions';
import { registerFollowups } from './followups';
import { registerInboundReplies } from './inbound_replies';
import { registerKeys } from './keys';
import { registerOrgs } from './orgs';
import { registerOutbox } from './outbox';
import { registerReports } from './reports';
import { registerSendingProvider } from './sending_provider';

/** The organization owner's API (operator.md §3), behind ADMIN_TOKEN. */
export const adminGroup = newGroup();
adminGroup.use('/admin/v1/*', requireAdmin());
registerOrgs(adminGroup);
registerClients(adminGroup);
registerCampaigns(adminGroup);
registerKeys(adminGroup);
registerInboundReplies(adminGroup);
registerReports(adminGroup);
registerDecisions(adminGroup);
registerSendingProvider(adminGroup);
registerOutbox(adminGroup);
registerFollowups(adminGroup);
