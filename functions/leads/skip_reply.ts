import type { Group } from '../../lib/http/env';
import { errors, json, jsonBody, UuidParam } from '../../lib/http/openapi';
import { keyRoute } from '../../lib/http/route';
import { skipReply } from '../../lib/sending';
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
    const { db, clock } = c.get('services');
    const result = await skipReply({ db, actor: c.get('auth'), replyId: c.req.valid('param').id, reason: c.req.valid('json').reason, now: clock.now() });
    return c.json(result, 200);
  });
}
