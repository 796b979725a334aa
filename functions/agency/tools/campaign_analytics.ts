import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { defineOperation } from '../../../lib/agency/define';
import { campaignAnalytics, CampaignHealthSchema } from '../../../lib/campaigns_studio/analytics';

export const campaignAnalyticsOp = defineOperation({
  name: 'campaign_analytics',
  method: 'GET',
  path: '/v1/agency/clients/{client_id}/campaign-health',
  scope: 'agency.read',
  toolset: 'engine',
  studio: true,
  write: false,
  summary: "Health of the client's Studio campaigns at 200, 500 and 1,000 prospects contacted: bounce, reply and positive-reply rates with a verdict.",
  description:
    "Each checkpoint covers the first N prospects mailed (all the client's Studio campaigns, in send order). Verdict stop: bounce >= 3 %; watch: bounce >= 2 %, replies < 1 % or positive < 0.2 %; else healthy. Unreached: reached false.",
  input: z.object({ client_id: idArg('client') }).strict(),
  output: z.object({ health: CampaignHealthSchema }),
  run: async (call, input) => ({ body: await campaignAnalytics(call, input) }),
});
