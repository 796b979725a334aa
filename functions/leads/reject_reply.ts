import type { Group } from '../../lib/http/env';
import { errors, json, jsonBody, UuidParam } from '../../lib/http/openapi';
import { keyRoute } from '../../lib/http/route';
import { rejectReplyAnswer } from '../../lib/sending';
import { RejectBody, RejectedResponse } from './sending_schema';

const route = keyRoute('replies.approve', {
  method: 'post',
  path: '/v1/replies/{id}/reject',
  tags: ['replies'],
  summary: 'Reject the queued draft of a reply: the draft is removed, the reply stays unanswered, nothing is sent',
  request: { params: UuidParam, body: jsonBody(RejectBody) },
  responses: { 200: json(RejectedResponse), ...errors([404, 'not_found'], [409, 'already_sent / no_pending_draft']) },
});

export function registerRejectReply(app: Group) {
  app.openapi(route, async (c) => {
    const { status, body } = await rejectReplyAnswer({ deps: c.get('services'), auth: c.get('auth'), via: 'rest' }, c.req.valid('param').id, c.req.valid('json'));
    return c.json(body, status);
  });
}
