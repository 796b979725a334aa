import { serve, type ServerType } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { allGroups } from '../../functions/groups';
import { jobSchedule, jobHandlers } from '../../functions/jobs/handlers';
import { errorText } from '../log';
import { startJobRunner } from '../queue/runner';
import { createPlatform } from '../http/platform';
import { dueBriefTypes, runBriefs } from '../reports/schedule';
import type { NodeServices } from './node';

export function createNodeApp(services: NodeServices) {
  return createPlatform({
    groups: allGroups,
    services: async () => ({ services }),
    socketIp: (c) => {
      try {
        return getConnInfo(c).remote.address;
      } catch {
        return undefined; // app.request() in tests has no socket
      }
    },
  });
}

/** The embedded scheduler's periodic work under Node (the Worker uses cron triggers instead). */
export function startEmbeddedSchedules(services: NodeServices, everyMs = 60_000) {
  const tick = () =>
    runBriefs({ db: services.db, types: dueBriefTypes(services.clock.now()), now: services.clock.now() }).catch((err) =>
      services.log.error('scheduled briefs failed', { error: errorText(err) }),
    );
  const timer = setInterval(tick, everyMs);
  timer.unref();
  void tick();
  // Queue jobs (webhook deliveries, retries, due steps) and the webhook sweep; with QStash only the sweep.
  const jobs = startJobRunner(services, jobHandlers, jobSchedule);
  return () => {
    clearInterval(timer);
    void jobs.stop();
  };
}

export function serveNode(services: NodeServices, host: string, port: number): Promise<ServerType & { port: number }> {
  const app = createNodeApp(services);
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, hostname: host, port }, (info) => resolve(Object.assign(server, { port: info.port })));
  });
}
