import { errorText } from '../../lib/log';
import { runHandler } from '../../lib/queue/run';
import { workerApp, workerServices } from '../../lib/runtime/worker';
import { jobsGroup } from './app';
import { jobHandlers, jobSchedule } from './handlers';

const app = workerApp([jobsGroup]);

export default {
  fetch: app.fetch,
  /** Cron trigger (every minute): the periodic kinds, e.g. the webhook sweep (missed events, failed publishes). */
  async scheduled(_controller: { cron: string; scheduledTime: number }, env: Record<string, unknown>, ctx: { waitUntil(p: Promise<unknown>): void }) {
    const { services, dispose } = workerServices(env);
    const runAll = async () => {
      for (const { kind } of jobSchedule.periodic ?? []) {
        await runHandler(jobHandlers, kind, {}, { services, attempt: 1 }).catch((err) => services.log.error('scheduled job failed', { kind, error: errorText(err) }));
      }
    };
    const run = runAll().finally(dispose);
    ctx.waitUntil(run);
    await run;
  },
};
