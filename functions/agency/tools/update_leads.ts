import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { runTwoStep } from '../../../lib/agency/confirm';
import { confirmTokenArg, defineOperation, twoStepOutput } from '../../../lib/agency/define';
import { MAX_NEW_COLUMNS_PER_CALL } from '../../../lib/pool/columns';
import { ENRICH_FIELD_NAMES } from '../../../lib/pool/fixed_fields';
import { MAX_UPDATE_LEADS, updateLeads } from '../../../lib/pool/update_leads';

const Value = z.union([z.string(), z.number(), z.boolean(), z.null()]);
const NewColumn = z.object({ key: z.string(), type: z.enum(['text', 'number', 'boolean', 'url']).describe('boolean = yes/no') });
const Unknown = z.object({ index: z.number().int(), lead_id: z.string().optional(), email: z.string().optional() });

const UpdatePreview = z.object({
  leads: z.array(
    z.object({
      index: z.number().int(),
      lead_id: z.string(),
      email: z.string().nullable(),
      changes: z.record(z.string(), z.object({ from: Value, to: Value })).describe('field (custom columns as custom.<key>) → its value now and after'),
    }),
  ),
  new_columns: z.array(NewColumn).describe('custom columns the confirm creates, with the type their values suggest'),
  unknown: z.array(Unknown).describe("entries whose lead is not in this client's pool: skipped"),
  updated: z.number().int().describe('leads whose values change'),
});

const UpdateResult = z.object({
  updated: z.number().int(),
  leads: z.array(z.object({ id: z.string(), changed: z.array(z.string()) })),
  new_columns: z.array(NewColumn),
  unknown: z.array(Unknown),
});

export const updateLeadsOp = defineOperation({
  name: 'update_leads',
  method: 'POST',
  path: '/v1/agency/clients/{client_id}/leads/enrich',
  scope: 'agency.write',
  toolset: 'leads',
  studio: true,
  write: true,
  twoStep: true,
  summary: "Enrich leads of a client's pool by hand (two steps): fixed fields and custom columns.",
  description:
    'Set values on up to 500 leads (by lead_id or email), two steps. Fixed fields: volume_band, monthly_volume, mail_type, current_sender, hook, named_account, sends_for_customers, linkedin_url, note; any other name is a custom column (at most 20 new per call). Email, ids, status and imported fields are refused; null clears. Recorded as source manual (agency).',
  input: z
    .object({
      client_id: idArg('client'),
      leads: z.array(z.record(z.string(), z.unknown())).min(1).max(MAX_UPDATE_LEADS, { message: `at most ${MAX_UPDATE_LEADS} leads per call` }),
      confirm_token: confirmTokenArg,
    })
    .strict(),
  output: twoStepOutput(UpdatePreview, UpdateResult),
  run: async (call, input) => {
    const out = await runTwoStep(call, updateLeads, input);
    return { body: out.confirmed ? out.result : out.answer };
  },
});
