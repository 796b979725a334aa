import { z } from '@hono/zod-openapi';
import { PaginationMeta, pageQuery } from '../../lib/http/openapi';

export const CampaignStatus = z.enum(['active', 'paused', 'completed']);

export const Campaign = z
  .object({
    id: z.uuid(),
    name: z.string(),
    status: CampaignStatus,
    sent: z.number().int(),
    replied: z.number().int(),
    reply_rate: z.number().openapi({ description: 'replied / sent as a fraction (0.125 = 12.5 %)' }),
    open_rate: z.number().openapi({ description: 'opened / sent as a fraction' }),
    client: z.object({ id: z.string(), name: z.string() }).nullable(),
    stats_last_synced_at: z.string(),
  })
  .openapi('Campaign');

export const ListCampaignsQuery = z.object({ status: CampaignStatus.optional(), ...pageQuery(50, 100) });
export const ListCampaignsResponse = z.object({ campaigns: z.array(Campaign), ...PaginationMeta }).openapi('CampaignList');
