import { z } from 'zod';
import { idArg, intArg } from '../../../lib/agency/args';
import { defineOperation } from '../../../lib/agency/define';
import { AgencyFollowupSchema, FOLLOWUP_STATUSES, listAgencyFollowups } from '../../../lib/agency/insights/list_followups';

export const listFollowupsOp = defineOperation({
  name: 'list_followups',
  method: 'GET',
  path: '/v1/agency/followups',
  scope: 'agency.read',
  toolset: 'campaigns',
  write: false,
  summary: 'Planned follow-ups and check-ins on reply threads, as an agenda.',
  description:
    'The organization\'s follow-ups and check-ins as an agenda, optionally of client_id or one status (planned, review, sent, cancelled): open ones first, soonest due first; then sent and cancelled, latest first. Paged: pass next_offset as offset (null on the last page).',
  input: z
    .object({
      client_id: idArg('client').optional(),
      status: z.enum(FOLLOWUP_STATUSES).optional(),
      limit: intArg(1, 200).optional(),
      offset: intArg(0, 1_000_000).optional(),
    })
    .strict(),
  output: z.object({ followups: z.array(AgencyFollowupSchema), next_offset: z.number().int().nullable() }),
  run: async (call, input) => ({ body: await listAgencyFollowups(call, input) }),
});
