// The webhook pipeline as queue jobs: dispatch (events → deliveries), deliver (a batch of deliveries by id) and
// the sweep (whatever a missed trigger or a failed publish left behind). Both queue adapters run these handlers.
import { z } from 'zod';
import { pruneJobs } from '../queue/embedded';
import { pruneWebhookHistory } from './prune';
import type { JobHandlers } from '../queue/port';
import type { Services } from '../services';
import { DELIVERY_LEASE_MS, deliverDue } from './attempt';
import { DELIVER_JOB, DELIVERIES_PER_JOB, dispatchEvents } from './dispatch';

export const DISPATCH_JOB = 'webhook.dispatch';
export const SWEEP_JOB = 'webhook.sweep';
export { DELIVER_JOB };

/**
 * A retry whose message arrives this little before its stored due time (clocks of two machines) is sent rather
 * than left to the sweep a minute later.
 */
const EARLY_TOLERANCE_MS = 1_000;

const DeliverPayload = z.object({ delivery_ids: z.array(z.uuid()).max(DELIVERIES_PER_JOB) });

export type WebhookJobOptions = {
  /** How long a claimed delivery is ours before a sweep or another job may take it over. */
  leaseMs?: number;
  /** The sweep sends pending deliveries only once they are this overdue: normally their own job sends them. */
  sweepGraceMs?: number;
  /** Deliveries the sweep sends itself, at most, per run. */
  sweepLimit?: number;
};

export function webhookJobHandlers(opts: WebhookJobOptions = {}): JobHandlers {
  const leaseMs = opts.leaseMs ?? DELIVERY_LEASE_MS;
  const dispatch = (services: Services) => dispatchEvents(services, { now: services.clock.now() });
  return {
    [DISPATCH_JOB]: async (_payload, { services }) => {
      await dispatch(services);
    },
    [DELIVER_JOB]: async (payload, { services }) => {
      const parsed = DeliverPayload.safeParse(payload);
      if (!parsed.success) throw new Error(`${DELIVER_JOB}: malformed payload`);
      const dueBy = new Date(services.clock.now().getTime() + EARLY_TOLERANCE_MS);
      await deliverDue(services, { ids: parsed.data.delivery_ids, dueBy, leaseMs, limit: DELIVERIES_PER_JOB });
    },
    [SWEEP_JOB]: async (_payload, { services }) => {
      await dispatch(services);
      const limit = opts.sweepLimit ?? 200;
      for (let sent = 0; sent < limit; ) {
        const dueBy = new Date(services.clock.now().getTime() - (opts.sweepGraceMs ?? 60_000));
        const { claimed } = await deliverDue(services, { dueBy, leaseMs, limit: Math.min(DELIVERIES_PER_JOB, limit - sent) });
        if (claimed === 0) break;
        sent += claimed;
      }
      await pruneWebhookHistory(services.db, services.clock.now());
      if (services.queue.kind === 'embedded') await pruneJobs(services.db, services.clock.now());
    },
  };
}
