import { suggestReply } from '../../lib/ai/suggest';
import type { Group } from '../../lib/http/env';
import { idempotent } from '../../lib/http/idempotency';
import { errors, json, jsonBody } from '../../lib/http/openapi';
import { keyRoute } from '../../lib/http/route';
import { IdempotencyHeader, SuggestBody, SuggestionResponse } from './schema';

const route = keyRoute('suggest', {
  method: 'post',
  path: '/v1/suggest',
  tags: ['ai'],
  summary: "Suggest a reply to a prospect's message; costs 1 credit (none when the model fails)",
  request: { headers: IdempotencyHeader, body: jsonBody(SuggestBody) },
  responses: {
    200: json(SuggestionResponse),
    ...errors(
      [404, 'not_found: client_id is not a client this key may use'],
      [409, 'idempotency_conflict'],
      [429, 'daily_credit_limit_exceeded (Retry-After: seconds until 00:00 UTC) / rate_limit_exceeded'],
      [504, 'ai_error: the model failed or did not answer within the 30 s limit; no credit spent'],
    ),
  },
});

export function registerSuggest(app: Group) {
  app.openapi(route, async (c) => {
    const startedAt = Date.now();
    const input = c.req.valid('json');
    return idempotent(c, 'ai.suggest', input, async () => {
      const result = await suggestReply({ deps: c.get('services'), auth: c.get('auth'), input, startedAt });
      return { status: 200, body: result };
    }) as never;
  });
}
