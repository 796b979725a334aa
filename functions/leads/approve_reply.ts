import type { Group } from '../../lib/http/env';
import { idempotent } from '../../lib/http/idempotency';
import { errors, json, jsonBody, UuidParam } from '../../lib/http/openapi';
import { keyRoute } from '../../lib/http/route';
import { approveReplyAnswer } from '../../lib/sending';
import { ApproveBody, ApprovedResponse, IdempotencyHeader } from './sending_schema';

const route = keyRoute('replies.approve', {
  method: 'post',
  path: '/v1/replies/{id}/approve',
  tags: ['replies'],
  summary: 'Approve the queued draft of a reply: it is sent now, the approver is recorded (reply.approved, reply.sent)',
  request: { params: UuidParam, headers: IdempotencyHeader, body: jsonBody(ApproveBody) },
  responses: {
    200: json(ApprovedResponse, 'Sent'),
    ...errors(
      [404, 'not_found'],
      [409, 'already_sent / no_pending_draft / idempotency_conflict'],
      [429, 'send_rate_limit_exceeded (Retry-After: 60) / lead_recently_contacted (Retry-After: 900) / rate_limit_exceeded'],
      [502, 'provider_error: the sending provider failed; nothing was sent, the draft stays'],
    ),
  },
});

export function registerApproveReply(app: Group) {
  app.openapi(route, async (c) => {
    const id = c.req.valid('param').id;
    const { approver } = c.req.valid('json');
    return idempotent(c, 'replies.approve', { id, approver }, () => approveReplyAnswer({ deps: c.get('services'), auth: c.get('auth'), via: 'rest' }, id, { approver })) as never;
  });
}
