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
  description: [
    'Approve the draft waiting in the review queue for this reply: it is sent now as it stands (its latest body), and approver,',
    'the name of the person who approved it, is recorded. Send limits and the lead\'s cooldown apply as to any send.',
    'Refusals: no_pending_draft, already_sent (409), send_rate_limit_exceeded / lead_recently_contacted (429), provider_error (502).',
  ].join(' '),
  input: z.object({ reply_id: idArg('reply'), ...ApproveBody.shape }).strict(),
  output: ApprovedResponse,
  run: async (call, { reply_id, ...input }) => approveReplyAnswer({ deps: call.services, auth: call.auth, via: call.via }, reply_id, input),
});
