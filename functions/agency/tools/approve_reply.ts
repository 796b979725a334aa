import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { defineOperation } from '../../../lib/agency/define';
import { approveReplyAnswer } from '../../../lib/sending';
import { ApproveBody, ApprovedResponse } from '../../leads/sending_schema';

export const approveReplyOp = defineOperation({
  name: 'approve_reply',
  rest: 'core',
  method: 'POST',
  path: '/v1/replies/{reply_id}/approve',
  scope: 'replies.approve',
  toolset: 'replies',
  write: true,
  openWorld: true,
  summary: 'Approve the draft waiting in the review queue for this reply: it is sent now as it stands, with approver (the person who approved) recorded.',
  description:
    'Send the draft waiting in the review queue for this reply as it stands, recording approver (the person). Send limits and the lead\'s cooldown apply. Refusals: no_pending_draft, already_sent, send_rate_limit_exceeded, lead_recently_contacted, provider_error.',
  input: z.object({ reply_id: idArg('reply'), ...ApproveBody.shape }).strict(),
  output: ApprovedResponse,
  run: async (call, { reply_id, ...input }) => approveReplyAnswer({ deps: call.services, auth: call.auth, via: call.via }, reply_id, input),
});
