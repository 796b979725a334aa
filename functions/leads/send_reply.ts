import type { Group } from '../../lib/http/env';
import { idempotent } from '../../lib/http/idempotency';
import { errors, json, jsonBody, UuidParam } from '../../lib/http/openapi';
import { keyRoute } from '../../lib/http/route';
import { sendReplyAnswer } from '../../lib/sending';
import { IdempotencyHeader, QueuedResponse, SendBody, SentResponse } from './sending_schema';

const route = keyRoute('replies.send', {
  method: 'post',
  path: '/v1/replies/{id}/send',
  tags: ['replies'],
  summary: "Send a reply under the key's autonomy level: sent at once (level 2+) or queued for human review",
  request: { params: UuidParam, headers: IdempotencyHeader, body: jsonBody(SendBody) },
  responses: {
    200: json(SentResponse, 'Sent'),
    202: json(QueuedResponse, 'Queued for review (success with pending: do not retry)'),
    ...errors(
      [404, 'not_found'],
      [409, 'already_sent / idempotency_conflict'],
      [429, 'send_rate_limit_exceeded (Retry-After: 60) / lead_recently_contacted (Retry-After: 900) / rate_limit_exceeded'],
      [502, 'provider_error: the sending provider failed; nothing was sent'],
    ),
  },
});

export function registerSendReply(app: Group) {
  app.openapi(route, async (c) => {
    const id = c.req.valid('param').id;
    const input = c.req.valid('json');
    // The answer is built by the verb the send_reply tool calls too (one status, one body on both faces).
    return idempotent(c, 'replies.send', { id, ...input }, () => sendReplyAnswer({ deps: c.get('services'), auth: c.get('auth'), via: 'rest' }, id, input)) as never;
  });
}
