// A real service process for the crash test: `node --import tsx test/helpers/webhook_child.ts`, configured by the
// environment like `npm run dev` (DATA_DIR for a persistent PGlite, or DATABASE_URL), serving every group and
// running the embedded job runner. Prints {"port":n} once listening. Leases are short (CHILD_LEASE_MS) so that
// the work of a killed process is taken over within seconds rather than the production minute.
import { loadConfig } from '../../lib/config';
import { startJobRunner } from '../../lib/queue/runner';
import { createNodeServices } from '../../lib/runtime/node';
import { serveNode } from '../../scripts/node_server';
import { webhookJobHandlers } from '../../lib/webhooks/jobs';
import { jobSchedule, jobHandlers } from '../../functions/jobs/handlers';

const leaseMs = Number(process.env.CHILD_LEASE_MS ?? 2_000);
const config = loadConfig(process.env);
const services = await createNodeServices(config);
const server = await serveNode(services, config.HOST, config.PORT);
startJobRunner(services, { ...jobHandlers, ...webhookJobHandlers({ leaseMs, sweepGraceMs: leaseMs }) }, { ...jobSchedule, leaseMs, concurrency: 2 });
process.stdout.write(`${JSON.stringify({ port: server.port })}\n`);
