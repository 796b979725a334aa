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
  description:
    'Import the sending tool\'s campaigns not here yet (list_campaigns not_imported), optionally into client_id (two steps). provider_campaign_ids picks some (unknown: not_found; already imported: skipped); else all, up to 200 per call. Nothing left: confirm_token null, blocked_by conflict. A campaign already carrying the provider id is adopted, not duplicated.',
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
