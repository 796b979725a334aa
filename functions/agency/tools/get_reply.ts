import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { defineOperation } from '../../../lib/agency/define';
import { getReplyAnswer } from '../../../lib/leads/get_reply';
import { tenantOf } from '../../../lib/tenancy';
import { GetReplyResponse } from '../../leads/schema';

export const getReplyOp = defineOperation({
  name: 'get_reply',
  rest: 'core',
  method: 'GET',
  path: '/v1/replies/{reply_id}',
  scope: 'leads.read',
  toolset: 'replies',
  write: false,
  summary: "One prospect reply as received (text and HTML part) with its lead's whole conversation in time order. Read it before answering.",
  input: z.object({ reply_id: idArg('reply') }).strict(),
  output: GetReplyResponse,
  run: async (call, input) => ({ body: await getReplyAnswer({ db: call.services.db, tenant: tenantOf(call.auth), replyId: input.reply_id }) }),
});
