import type { Operation } from '../../../lib/agency/operation';
import { getClientPerformanceOp } from '../tools/get_client_performance';
import { getInboxSummaryOp } from '../tools/get_inbox_summary';
import { importCampaignsOp } from '../tools/import_campaigns';
import { linkCampaignOp } from '../tools/link_campaign';
import { listCampaignsOp } from '../tools/list_campaigns';
import { listFollowupsOp } from '../tools/list_followups';

/** Campaigns and insights: campaigns (imported and not yet), inbox summary, performance, follow-ups. */
export const CAMPAIGN_OPERATIONS = [
  listCampaignsOp,
  getInboxSummaryOp,
  getClientPerformanceOp,
  listFollowupsOp,
  linkCampaignOp,
  importCampaignsOp,
] as unknown as Operation[];
