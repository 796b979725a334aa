import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { listAgencyCampaigns } from '../../../lib/agency/campaigns/list_campaigns';
import { AgencyCampaignSchema, CAMPAIGN_STATUSES, NotImportedSchema } from '../../../lib/agency/campaigns/view';
import { defineOperation } from '../../../lib/agency/define';

export const listCampaignsOp = defineOperation({
  name: 'list_campaigns',
  method: 'GET',
  path: '/v1/agency/campaigns',
  scope: 'agency.read',
  toolset: 'campaigns',
  write: false,
  summary: "The organization's campaigns and the sending tool's campaigns not imported yet.",
  description:
    'The organization\'s campaigns, newest first, each with its client (null: unlinked), provider ids and lifetime stats as last synced. not_imported: the sending tool\'s campaigns not here yet (import_campaigns). client_id narrows campaigns (not_imported stays); status narrows both.',
  input: z
    .object({
      client_id: idArg('client').optional(),
      status: z.enum(CAMPAIGN_STATUSES).optional(),
    })
    .strict(),
  output: z.object({ campaigns: z.array(AgencyCampaignSchema), not_imported: z.array(NotImportedSchema) }),
  run: async (call, input) => ({ body: await listAgencyCampaigns(call, input) }),
});
