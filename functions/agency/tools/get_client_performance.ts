import { z } from 'zod';
import { idArg, instantArg } from '../../../lib/agency/args';
import { defineOperation } from '../../../lib/agency/define';
import { clientPerformance, PERFORMANCE_DEFAULT_DAYS, PerformanceSchema } from '../../../lib/agency/insights/client_performance';
import { MAX_SPAN_DAYS } from '../../../lib/agency/insights/period';

export const getClientPerformanceOp = defineOperation({
  name: 'get_client_performance',
  method: 'GET',
  path: '/v1/agency/clients/{client_id}/performance',
  scope: 'agency.read',
  toolset: 'campaigns',
  write: false,
  summary: "A client's results over a period: replies by classification, positive rate, messages sent, per campaign.",
  description: [
    `A client's results over [from, to) (default the last ${PERFORMANCE_DEFAULT_DAYS} days), computed from the stored replies and sends.`,
    'replies: received in the period, distinct leads, by classification, positive (hot + warm) and positive_rate (positive / replies). sends: messages the service sent (answers and follow-ups).',
    "campaigns: each of the client's campaigns with lifetime (the sending tool's counters as last synced: sent, opened, replied and rates) and period (replies, positive, sends).",
    `from/to: a date (a whole UTC day; to includes its day) or an ISO date-time with an offset; to must not be before from; at most ${MAX_SPAN_DAYS} days.`,
  ].join(' '),
  input: z
    .object({
      client_id: idArg('client'),
      from: instantArg().optional(),
      to: instantArg().optional(),
    })
    .strict(),
  output: PerformanceSchema,
  run: async (call, input) => ({ body: await clientPerformance(call, input) }),
});
