import type { Operation } from '../../../lib/agency/operation';
import { campaignAnalyticsOp } from '../tools/campaign_analytics';
import { campaignResultsOp } from '../tools/campaign_results';
import { clientTodayOp } from '../tools/client_today';
import { startCampaignOp } from '../tools/start_campaign';

/** Studio campaigns (issue 18): an approved batch pushed through the sequencer port, its results and health, the client's day. */
export const STUDIO_CAMPAIGN_OPERATIONS = [startCampaignOp, campaignResultsOp, campaignAnalyticsOp, clientTodayOp] as unknown as Operation[];
