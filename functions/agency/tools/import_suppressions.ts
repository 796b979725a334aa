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
  description: [
    `Adds up to ${MAX_ENTRIES.toLocaleString('en')} entries to the client's never-mail list, read as preview_suppressions_import reads them; entries already listed are left as they are, so a repeat adds nothing.`,
    'Refused entries are skipped and reported (invalid_count, the first 100 in invalid); a call with no valid entry at all is refused with validation_error naming the first.',
    'reason is an optional note kept with each entry. The list is checked at import, at batch selection, on every email the waterfall finds and right before any push.',
  ].join(' '),
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
