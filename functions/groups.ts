import { adminGroup } from './admin/app';
import { agencyGroup } from './agency/app';
import { aiGroup } from './ai/app';
import { bridgeGroup } from './bridge/app';
import { campaignsGroup } from './campaigns/app';
import { crmGroup } from './crm/app';
import { deskGroup } from './desk/app';
import { inboundGroup } from './inbound/app';
import { jobsGroup } from './jobs/app';
import { leadsGroup } from './leads/app';
import { mcpGroup } from './mcp/app';
import { meGroup } from './me/app';
import { portalGroup } from './portal/app';
import { reportsGroup } from './reports/app';
import { webhooksGroup } from './webhooks/app';

/** Every resource group: served together by the Node server, one Worker each on Cloudflare. */
export const allGroups = [meGroup, leadsGroup, campaignsGroup, reportsGroup, adminGroup, webhooksGroup, jobsGroup, aiGroup, crmGroup, inboundGroup, agencyGroup, mcpGroup, bridgeGroup, portalGroup, deskGroup];
