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
  description:
    'A client\'s results over [from, to) (default last 30 days): replies by classification, positive and positive_rate, sends, and per campaign its lifetime sequencer stats and period numbers. from/to: a date or an ISO date-time with offset, at most 366 days apart.',
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
