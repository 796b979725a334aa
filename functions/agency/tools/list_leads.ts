import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { defineOperation } from '../../../lib/agency/define';
import { columnsArg, leadFilterShape, pageShape } from '../../../lib/pool/filters';
import { listLeads } from '../../../lib/pool/list_leads';
import { PoolLeadSchema } from '../../../lib/pool/view';

export const listLeadsOp = defineOperation({
  name: 'list_leads',
  method: 'GET',
  path: '/v1/agency/clients/{client_id}/leads',
  scope: 'agency.read',
  toolset: 'leads',
  write: false,
  studio: true,
  summary: "A page of the client's lead pool, filtered; next_offset pages on (null on the last page).",
  description: [
    "A page of the client's lead pool, oldest first (a stable order: pass next_offset as offset for the next page; null on the last).",
    'Filters narrow together: icp_id, country (one or a list), volume_band_min (medium = medium or high), verified_only (email verified valid), status, q (text in email, name, company, domain or title).',
    'Removed leads are left out unless status is removed.',
    "not_contacted: true keeps leads in the pool that are in no own Studio batch or campaign, never replied to any of the organization's campaigns, and are not in the sending tool's latest daily campaign snapshot; each lead then carries contact_check naming those sources and the snapshot's day (checked: false while no snapshot is stored).",
    'columns names up to 12 column keys (custom columns and formula columns) to return in custom (an unknown key is refused, naming it); without it custom holds every custom value.',
  ].join(' '),
  input: z
    .object({
      client_id: idArg('client'),
      ...leadFilterShape,
      ...pageShape,
      columns: columnsArg(),
    })
    .strict(),
  output: z.object({ leads: z.array(PoolLeadSchema), next_offset: z.number().int().nullable() }),
  run: async (call, input) => ({ body: await listLeads(call, input) }),
});
