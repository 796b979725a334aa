import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { defineOperation } from '../../../lib/agency/define';
import { campaignResults, CampaignResultsSchema } from '../../../lib/campaigns_studio/results';

export const campaignResultsOp = defineOperation({
  name: 'campaign_results',
  method: 'GET',
  path: '/v1/agency/clients/{client_id}/studio-campaigns/{campaign_id}',
  scope: 'agency.read',
  toolset: 'engine',
  studio: true,
  write: false,
  summary: 'One Studio campaign: its push (pushed, skipped as never-mail) and what the sequencer did (sent, bounced, replied, positive, per step).',
  description:
    'campaign_id: the Studio campaign id (start_campaign). positive = replied prospects classified hot or warm. With a production sequencer sent and bounced are null (not reported); replies come from the core inbox.',
  input: z.object({ client_id: idArg('client'), campaign_id: idArg('Studio campaign') }).strict(),
  output: z.object({ campaign: CampaignResultsSchema }),
  run: async (call, input) => ({ body: await campaignResults(call, input) }),
});
