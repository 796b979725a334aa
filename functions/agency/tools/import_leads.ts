import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { runTwoStep } from '../../../lib/agency/confirm';
import { confirmTokenArg, defineOperation, previewAnswer } from '../../../lib/agency/define';
import { ApiError } from '../../../lib/errors';
import { MAX_IMPORT_ROWS } from '../../../lib/pool/import';
import { commitImport, EXAMPLE_ROWS, previewImport } from '../../../lib/pool/import_leads';
import { ImportCountsSchema, ImportSchema } from '../../../lib/pool/imports_view';

const MAX_COLUMNS_PER_ROW = 200;

const RowOutcomeSchema = z.object({
  index: z.number().int().describe('position of the row in rows'),
  outcome: z.enum(['added', 'duplicate', 'already_mailed', 'waiting_for_email', 'invalid']),
  lead_id: z.string().optional(),
  reason: z.string().optional(),
});

const DryRun = z.object({
  counts: ImportCountsSchema.describe('what this chunk would do'),
  examples: z.array(RowOutcomeSchema).describe(`up to ${EXAMPLE_ROWS} row outcomes, refused rows (with their reason) first`),
  import: ImportSchema.nullable().describe('with import_id: that import\'s totals so far'),
  rows: z.number().int(),
});

const Committed = z.object({
  import_id: z.string().describe('pass it as import_id with the next chunk'),
  import: ImportSchema.describe('the whole import\'s totals so far'),
  counts: ImportCountsSchema.describe('this chunk'),
  examples: z.array(RowOutcomeSchema),
});

export const importLeadsOp = defineOperation({
  name: 'import_leads',
  method: 'POST',
  path: '/v1/agency/clients/{client_id}/leads/import',
  scope: 'agency.write',
  toolset: 'leads',
  studio: true,
  write: true,
  twoStep: true,
  summary: "Import lead rows into a client's pool: mode preview (dry run) or commit (two steps).",
  description:
    'Import up to 500 rows per call into the client\'s pool; for more, send chunks with the import_id the first commit returns. Columns: email, names, company, domain, website, title, linkedin urls, country, city, state; others become custom fields. Rows count as added, duplicate, already_mailed, waiting_for_email (no email yet) or invalid. mode preview (default) stores nothing; mode commit is two steps.',
  input: z
    .object({
      client_id: idArg('client'),
      rows: z
        .array(
          z
            .record(z.string(), z.unknown())
            .refine((r) => Object.keys(r).length <= MAX_COLUMNS_PER_ROW, { message: `a row has at most ${MAX_COLUMNS_PER_ROW} columns` }),
        )
        .min(1)
        .max(MAX_IMPORT_ROWS, { message: `at most ${MAX_IMPORT_ROWS} rows per call; send the rest as further chunks with import_id` }),
      mode: z.enum(['preview', 'commit']).default('preview').describe('preview: dry run, stores nothing; commit: two steps, stores'),
      import_id: idArg('import').optional().describe('the import_id the first commit returned: this chunk joins that import'),
      name: z.string().trim().min(1).max(200).optional().describe('name of a new import'),
      confirm_token: confirmTokenArg,
    })
    .strict(),
  output: z.union([DryRun.extend({ mode: z.literal('preview') }), previewAnswer(DryRun), Committed]),
  run: async (call, input) => {
    if (input.mode === 'preview') {
      if (input.confirm_token) throw new ApiError('validation_error', 'confirm_token: mode preview is a dry run with nothing to confirm; use mode commit');
      return { body: await previewImport(call, input) };
    }
    const out = await runTwoStep(call, commitImport, input);
    return { body: out.confirmed ? out.result : out.answer };
  },
});
