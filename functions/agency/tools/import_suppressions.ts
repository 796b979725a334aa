import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { defineOperation } from '../../../lib/agency/define';
import { MAX_ENTRIES } from '../../../lib/pool/suppression_entries';
import { ImportCountsSchema, importSuppressions } from '../../../lib/pool/suppressions';
import { entriesArg } from './preview_suppressions_import';

export const importSuppressionsOp = defineOperation({
  name: 'import_suppressions',
  method: 'POST',
  path: '/v1/agency/clients/{client_id}/suppressions/import',
  scope: 'agency.write',
  toolset: 'leads',
  write: true,
  studio: true,
  // Adds entries only: a repeat finds them listed and adds nothing.
  idempotent: true,
  summary: `Add up to ${MAX_ENTRIES.toLocaleString('en')} entries (emails or domains) to the client's never-mail list in one call.`,
  description:
    'Add up to 20,000 entries (emails or domains) to the client\'s never-mail list; entries already listed are kept, so a repeat adds nothing. Invalid entries are skipped and reported (invalid_count, first 100); none valid: validation_error. reason is an optional note. The list is checked at import, batch selection, email finding and every push.',
  input: z
    .object({
      client_id: idArg('client'),
      entries: entriesArg(),
      reason: z.string().trim().max(500).optional().describe('a note kept with the entries, e.g. "customer list 2025-06"'),
    })
    .strict(),
  output: ImportCountsSchema,
  run: async (call, input) => ({ body: await importSuppressions(call, input) }),
});
