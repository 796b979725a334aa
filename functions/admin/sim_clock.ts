// POST /admin/v1/sim/clock (agency-operator.md §5, §6): moves the simulated clock and runs everything that falls due
// on the way, in order; GET reads it. Only with CLOCK=sim: on the wall clock the route does not exist (404 naming
// CLOCK), so a production deployment can never be made to skip time. The clock is the deployment's, not one
// organization's, so no organization's audit log gets a row; the answer lists what ran.
import { z } from '@hono/zod-openapi';
import { jobHandlers, jobSchedule } from '../jobs/handlers';
import { advanceSimClock, MAX_ADVANCE_SECONDS } from '../../lib/clock/advance';
import { isSimClock, type SimClock } from '../../lib/clock/sim';
import { ApiError } from '../../lib/errors';
import type { Group } from '../../lib/http/env';
import { json, jsonBody } from '../../lib/http/openapi';
import type { Services } from '../../lib/services';
import { adminRoute } from './route';

const AdvanceBody = z
  .object({
    advance_seconds: z
      .number()
      .int()
      .min(1)
      .max(MAX_ADVANCE_SECONDS)
      .openapi({ description: `Seconds to move the clock forward: 1..${MAX_ADVANCE_SECONDS} (31 days) per call` }),
  })
  .strict();

const RanItem = z.object({
  at: z.string().openapi({ description: 'The simulated time it ran at' }),
  what: z.enum(['plan_step', 'job', 'tick']),
  id: z.string().openapi({ description: 'Step id, job id, or tick name' }),
  kind: z.string(),
  outcome: z.string().openapi({ description: 'ran / skipped / failed for steps; done or failed: <error> for jobs and ticks' }),
});

const advance = adminRoute({
  method: 'post',
  path: '/admin/v1/sim/clock',
  summary: 'Move the simulated clock forward (CLOCK=sim only), running every step, job and tick that falls due, in order',
  request: { body: jsonBody(AdvanceBody) },
  responses: { 200: json(z.object({ now: z.string(), ran: z.array(RanItem) })) },
});

const read = adminRoute({
  method: 'get',
  path: '/admin/v1/sim/clock',
  summary: 'The simulated clock (CLOCK=sim only)',
  responses: { 200: json(z.object({ now: z.string() })) },
});

function simClock(services: Services): SimClock {
  if (services.config.CLOCK !== 'sim' || !isSimClock(services.clock)) {
    throw new ApiError('not_found', `the simulated clock is off (CLOCK=${services.config.CLOCK}); start the service with CLOCK=sim to use /admin/v1/sim/clock`);
  }
  return services.clock;
}

export function registerSimClock(app: Group) {
  app.openapi(advance, async (c) => {
    const services = c.get('services');
    simClock(services);
    const { now, ran } = await advanceSimClock(services, c.req.valid('json').advance_seconds, { handlers: jobHandlers, everyTick: jobSchedule.everyTick });
    return c.json({ now: now.toISOString(), ran }, 200);
  });
  app.openapi(read, async (c) => c.json({ now: simClock(c.get('services')).now().toISOString() }, 200));
}
