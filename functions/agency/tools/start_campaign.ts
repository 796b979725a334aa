import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { defineOperation } from '../../../lib/agency/define';
import { startCampaign } from '../../../lib/campaigns_studio/start';
import { StudioCampaignSchema } from '../../../lib/campaigns_studio/view';
import { PlanSchema, StepSchema } from '../../../lib/plans/view';

export const startCampaignOp = defineOperation({
  name: 'start_campaign',
  method: 'POST',
  path: '/v1/agency/clients/{client_id}/campaigns/start',
  scope: 'agency.write',
  toolset: 'engine',
  studio: true,
  write: true,
  openWorld: true,
  summary: "Make an approved batch a Studio campaign with a push step in the plan; nothing is pushed before approval and an open push gate.",
  description: [
    'batch_id: default the latest batch; it must be approved (409 conflict names its status); one campaign per batch.',
    'Creates the campaign (proposed), its core campaign (campaign_id: replies land there; the client\'s sending mailboxes join it, attach others with attach_mailboxes) and a push_batch step on day. No mailbox at all: 409.',
  ].join(' '),
  input: z
    .object({
      client_id: idArg('client'),
      batch_id: idArg('batch').optional(),
      name: z.string().trim().min(1).max(200).optional(),
      day: z.number().int().min(0).max(365).optional().describe('days after approval'),
    })
    .strict(),
  output: z.object({ studio_campaign: StudioCampaignSchema, plan: PlanSchema, step: StepSchema }),
  run: async (call, input) => ({ status: 201, body: await startCampaign(call, input) }),
});
