import type { Operation } from '../../../lib/agency/operation';

/** Campaigns and insights: campaigns (imported and not yet), inbox summary, performance, follow-ups. */
export const CAMPAIGN_OPERATIONS = [] as unknown as Operation[];
