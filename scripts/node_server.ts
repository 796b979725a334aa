import { serve, type ServerType } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { allGroups } from '../functions/groups';
import { jobSchedule, jobHandlers } from '../functions/jobs/handlers';
import { errorText } from '../lib/log';
import { startJobRunner } from '../lib/queue/runner';
import { createPlatform } from '../lib/http/platform';
import { dueBriefTypes, runBriefs } from '../lib/reports/schedule';
import type { NodeServices } from '../lib/runtime/node';
import { maxHeaderSize } from 'node:http';
import type { Duplex } from 'node:stream';
import { envelope } from '../lib/errors';

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

/**
 * What Node's HTTP parser refuses before any handler runs (a request line or headers over its limit, a malformed
 * request) is answered in the error envelope like everything else, instead of Node's bare status line.
 */
function answerParserErrors(server: ServerType) {
  server.on('clientError', (err: Error & { code?: string }, socket: Duplex) => {
    if (!socket.writable) return socket.destroy();
    const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
    const status = tooLarge ? 431 : 400;
    const body = JSON.stringify(
      tooLarge
        ? envelope('request_header_fields_too_large', `the request line and headers exceed the server's limit of ${maxHeaderSize / 1024} KB`)
        : envelope('validation_error', 'malformed HTTP request'),
    );
    const reason = tooLarge ? 'Request Header Fields Too Large' : 'Bad Request';
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\nCache-Control: no-store\r\n\r\n${body}`,
    );
  });
}

export function serveNode(services: NodeServices, host: string, port: number): Promise<ServerType & { port: number }> {
  const app = createNodeApp(services);
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, hostname: host, port }, (info) => {
      server.off('error', reject);
      resolve(Object.assign(server, { port: info.port }));
    });
    // A taken port (EADDRINUSE) rejects instead of crashing the process, so the caller can say what to do.
    server.once('error', reject);
    answerParserErrors(server);
  });
}
