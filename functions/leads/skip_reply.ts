import type { Group } from '../../lib/http/env';
import { errors, json, jsonBody, UuidParam } from '../../lib/http/openapi';
import { keyRoute } from '../../lib/http/route';
import { skipReplyAnswer } from '../../lib/sending';
import { SkipBody, SkippedResponse } from './sending_schema';

const route = keyRoute('replies.send', {
  method: 'post',
  path: '/v1/replies/{id}/skip',
  tags: ['replies'],
  summary: 'Decide not to answer a reply: the decision is recorded in the Decision Trail, nothing is sent',
  request: { params: UuidParam, body: jsonBody(SkipBody) },
  responses: { 200: json(SkippedResponse), ...errors([404, 'not_found'], [409, 'already_sent / already_skipped / draft_pending']) },
});

export function registerSkipReply(app: Group) {
  app.openapi(route, async (c) => {
    const { status, body } = await skipReplyAnswer({ deps: c.get('services'), auth: c.get('auth'), via: 'rest' }, c.req.valid('param').id, c.req.valid('json'));
    return c.json(body, status);
  });
}
