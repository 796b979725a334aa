import { recordFeedback } from '../../lib/ai/feedback';
import type { Group } from '../../lib/http/env';
import { idempotent } from '../../lib/http/idempotency';
import { errors, json, jsonBody } from '../../lib/http/openapi';
import { keyRoute } from '../../lib/http/route';
import { FeedbackBody, FeedbackResponse, IdempotencyHeader } from './schema';

const route = keyRoute('suggest', {
  method: 'post',
  path: '/v1/suggest/feedback',
  tags: ['ai'],
  summary: 'Tell the assistant what happened to a suggestion; an edited version is learned for the client and medium (0 credits)',
  request: { headers: IdempotencyHeader, body: jsonBody(FeedbackBody) },
  responses: {
    200: json(FeedbackResponse),
    ...errors([404, 'not_found: unknown suggestion_id or client_id'], [409, 'idempotency_conflict']),
  },
});

export function registerSuggestFeedback(app: Group) {
  app.openapi(route, async (c) => {
    const input = c.req.valid('json');
    const { db, clock } = c.get('services');
    return idempotent(c, 'ai.feedback', input, async () => {
      const result = await recordFeedback({ db, auth: c.get('auth'), input, now: clock.now() });
      return { status: 200, body: result };
    }) as never;
  });
}
