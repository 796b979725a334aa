import { z } from 'zod';
import { idArg, instantArg } from '../../../lib/agency/args';
import { defineOperation } from '../../../lib/agency/define';
import { INBOX_DEFAULT_DAYS, inboxSummary, InboxSummarySchema } from '../../../lib/agency/insights/inbox_summary';
import { MAX_SPAN_DAYS } from '../../../lib/agency/insights/period';

export const getInboxSummaryOp = defineOperation({
  name: 'get_inbox_summary',
  method: 'GET',
  path: '/v1/agency/inbox-summary',
  scope: 'agency.read',
  toolset: 'campaigns',
  write: false,
  summary: 'The reply inbox at a glance: what came in and went out in a period, and what waits now.',
  description:
    'The reply inbox of the organization or one client: in the period [from, to) (default last 7 days) received replies by classification, positive and positive_rate, and sends; now: waiting (unanswered, in_review, hot_unanswered, oldest) and followups. from/to: a date or an ISO date-time with offset, at most 366 days apart.',
  input: z
    .object({
      client_id: idArg('client').optional(),
      from: instantArg().optional(),
      to: instantArg().optional(),
    })
    .strict(),
  output: InboxSummarySchema,
  run: async (call, input) => ({ body: await inboxSummary(call, input) }),
});
