import { z } from 'zod';
import { DocsSchema, MAX_DOCS_CHARS, updateAgencyDocs } from '../../../lib/agency/account/agency_docs';
import { boolArg } from '../../../lib/agency/args';
import { defineOperation } from '../../../lib/agency/define';

export const updateAgencyDocsOp = defineOperation({
  name: 'update_agency_docs',
  method: 'PATCH',
  path: '/v1/agency/docs',
  scope: 'agency.write',
  toolset: 'account',
  write: true,
  summary: `Replace the agency's notes (or add to them with append: true). At most ${MAX_DOCS_CHARS} characters in all.`,
  input: z.object({ text: z.string().max(MAX_DOCS_CHARS), append: boolArg().optional() }).strict(),
  output: z.object({ docs: DocsSchema, updated: z.boolean() }),
  run: async (call, input) => ({ body: await updateAgencyDocs(call, input) }),
});
