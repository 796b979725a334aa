import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { defineOperation } from '../../../lib/agency/define';
import { MAX_ENTRIES } from '../../../lib/pool/suppression_entries';
import { PreviewCountsSchema, previewSuppressionsImport } from '../../../lib/pool/suppressions';

export const entriesArg = () =>
  z
    .array(z.string().max(1000))
    .min(1)
    .max(MAX_ENTRIES)
    .describe(`1 to ${MAX_ENTRIES.toLocaleString('en')} entries: an email address, or a domain ("acme.com", "@acme.com", or a website whose host counts)`);

export const previewSuppressionsImportOp = defineOperation({
  name: 'preview_suppressions_import',
  method: 'POST',
  path: '/v1/agency/clients/{client_id}/suppressions/preview',
  scope: 'agency.write',
  toolset: 'leads',
  write: true,
  studio: true,
  // Stores nothing: a repeat answers the same.
  idempotent: true,
  summary: "What importing these entries into the client's never-mail list would do (stores nothing).",
  description:
    'What import_suppressions would do with up to 20,000 entries, storing nothing. An entry with @ is an address, else a domain (a website stands for its host, www. dropped); lower-cased, deduplicated. Answers counts (valid, emails, domains, duplicates, already_listed, would_add, invalid) and the first 100 refused with the reason.',
  input: z.object({ client_id: idArg('client'), entries: entriesArg() }).strict(),
  output: PreviewCountsSchema,
  run: async (call, input) => ({ body: await previewSuppressionsImport(call, input) }),
});
