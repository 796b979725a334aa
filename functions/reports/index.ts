import { BRIEF_SCHEDULE, runBriefs } from '../../lib/reports/schedule';
import { workerApp, workerServices } from '../../lib/runtime/worker';
import { reportsGroup } from './app';

const app = workerApp([reportsGroup]);

export default {
  fetch: app.fetch,
  /** Cron triggers (wrangler.toml) generate the friday and monday briefs for every organization. */
  async scheduled(controller: { cron: string; scheduledTime: number }, env: Record<string, unknown>, ctx: { waitUntil(p: Promise<unknown>): void }) {
    const types = BRIEF_SCHEDULE.filter((s) => s.cron === controller.cron).map((s) => s.type);
    const { services, dispose } = workerServices(env);
    const run = runBriefs({ db: services.db, types, now: new Date(controller.scheduledTime) })
      .then((n) => services.log.info('briefs generated', { cron: controller.cron, generated: n }))
      .finally(dispose);
    ctx.waitUntil(run);
    await run;
  },
};
