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
  description: [
    `The reply inbox of the organization, or of one client (client_id). Two kinds of numbers: the period [from, to) (default the last ${INBOX_DEFAULT_DAYS} days) and now.`,
    'received: replies received in the period, by classification, positive (hot + warm) and positive_rate. sends: messages the service sent in the period (answers and follow-ups).',
    'waiting (now, whenever received): unanswered replies (what list_pending_replies shows with status unanswered), in_review (drafts waiting for approval), hot_unanswered, oldest_unanswered_received_at. followups (now): planned, in_review, next_due_at.',
    `from/to: a date (a whole UTC day; to includes its day) or an ISO date-time with an offset; to must not be before from; at most ${MAX_SPAN_DAYS} days. A reply counts for the client its campaign is linked to now.`,
  ].join(' '),
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
