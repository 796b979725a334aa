import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { linkCampaign } from '../../../lib/agency/campaigns/link_campaign';
import { AgencyCampaignSchema } from '../../../lib/agency/campaigns/view';
import { defineOperation } from '../../../lib/agency/define';

export const linkCampaignOp = defineOperation({
  name: 'link_campaign',
  method: 'PATCH',
  path: '/v1/agency/campaigns/{campaign_id}',
  scope: 'agency.write',
  toolset: 'campaigns',
  write: true,
  // Linking a campaign where it already is changes nothing (updated: false).
  idempotent: true,
  summary: 'Link a campaign to a client, or unlink it with client_id: null.',
  description:
    "Link a campaign to one of the agency's clients (client_id), or unlink it (client_id: null). Its replies and leads move with it: they show under that client from now on (portal, CRM feed, performance). Answers updated: false when the campaign was already there.",
  input: z
    .object({
      campaign_id: idArg('campaign'),
      client_id: idArg('client').nullable().describe('the client to link to; null unlinks the campaign'),
    })
    .strict(),
  output: z.object({ campaign: AgencyCampaignSchema, updated: z.boolean() }),
  run: async (call, input) => ({ body: await linkCampaign(call, input) }),
});
