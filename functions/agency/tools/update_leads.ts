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
  description: [
    `leads: up to ${MAX_UPDATE_LEADS} objects, each picking a lead by lead_id or email and giving the values to set.`,
    `Fixed fields: ${ENRICH_FIELD_NAMES.join(', ')} (volume_band high/medium/low, alias volume_estimate; monthly_volume a whole number; named_account and sends_for_customers true/false; current_sender overrides the DNS scan).`,
    `Any other name becomes a custom column of the client's pool (text, number, yes/no or URL, typed by its values; at most ${MAX_NEW_COLUMNS_PER_CALL} new columns per call). The writer uses a custom column only after a person switches it on.`,
    'Email, its verification, ids, status and the imported fields (names, company, domain, title …) are refused with a validation_error. null clears a value.',
    'Two steps: the first call shows each lead\'s changes (from → to), the new columns and the entries whose lead is unknown; repeat it with the confirm_token to write. Values are recorded with source "manual (agency)", the key and the time.',
  ].join(' '),
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
