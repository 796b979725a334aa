import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { importCampaigns, MAX_IMPORT } from '../../../lib/agency/campaigns/import_campaigns';
import { AgencyCampaignSchema, CAMPAIGN_STATUSES } from '../../../lib/agency/campaigns/view';
import { runTwoStep } from '../../../lib/agency/confirm';
import { confirmTokenArg, defineOperation, twoStepOutput } from '../../../lib/agency/define';

const ImportPreview = z.object({
  client: z.object({ id: z.string(), name: z.string() }).nullable(),
  provider: z.string().describe('the provider the new campaigns get: the sending tool (instantly, smartlead) or generic'),
  count: z.number().int(),
  campaigns: z.array(
    z.object({
      provider_campaign_id: z.string(),
      name: z.string(),
      status: z.enum(CAMPAIGN_STATUSES),
      existing_campaign_id: z.string().nullable().describe('a campaign that already has this provider id: it is adopted, not duplicated'),
    }),
  ),
  already_imported: z.array(z.object({ provider_campaign_id: z.string(), campaign_id: z.string().nullable() })),
  more_not_imported: z.number().int().describe('not imported campaigns beyond this round; import again after confirming'),
});

export const importCampaignsOp = defineOperation({
  name: 'import_campaigns',
  method: 'POST',
  path: '/v1/agency/campaigns/import',
  scope: 'agency.write',
  toolset: 'campaigns',
  write: true,
  twoStep: true,
  summary: "Import the sending tool's campaigns (two steps), optionally into a client.",
  description: [
    "Import campaigns that exist at the sending tool but not here yet (list_campaigns shows them under not_imported), optionally into a client (client_id).",
    `provider_campaign_ids names which (an unknown id is not_found, naming it; ids already imported are listed under already_imported and skipped); without it, every campaign not imported yet, at most ${MAX_IMPORT} per call, oldest first.`,
    'Two steps: the first call shows what will be imported and a confirm_token; repeat it with the token to import. If another import took some of them meanwhile, the confirm answers preview_stale with a fresh preview.',
    'When nothing is left to import the preview has count 0, confirm_token null and blocked_by "conflict".',
    'A campaign here that already carries the provider id is adopted (recorded as imported and, with client_id, linked to that client) rather than duplicated.',
  ].join(' '),
  input: z
    .object({
      provider_campaign_ids: z.array(z.string().trim().min(1).max(200)).min(1).max(MAX_IMPORT).optional(),
      client_id: idArg('client').optional(),
      confirm_token: confirmTokenArg,
    })
    .strict(),
  output: twoStepOutput(ImportPreview, z.object({ imported: z.array(AgencyCampaignSchema), count: z.number().int() })),
  run: async (call, input) => {
    const out = await runTwoStep(call, importCampaigns, input);
    return { body: out.confirmed ? out.result : out.answer };
  },
});
