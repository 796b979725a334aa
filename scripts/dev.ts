// `npm run dev`: every resource group in one Node process on the embedded defaults (or whatever the
// environment configures), with a demo organization on a new data dir.
import { loadConfig } from '../lib/config';
import { seedDemoOrg } from '../lib/orgs/demo';
import { createNodeServices } from '../lib/runtime/node';
import { serveNode, startEmbeddedSchedules } from '../lib/runtime/node_server';

const config = loadConfig(process.env);
const services = await createNodeServices(config);
const demo = await seedDemoOrg(services.db, services.classify, services.clock.now());
const server = await serveNode(services, config.HOST, config.PORT);
const stopSchedules = startEmbeddedSchedules(services);

const base = `http://${config.HOST}:${server.port}`;
console.log(`Reply Intelligence Service listening on ${base}`);
console.log(`  database: ${config.DATABASE_URL ? 'Postgres (DATABASE_URL)' : `embedded PGlite in ${config.DATA_DIR}`}; limits: ${services.limits.kind}`);
console.log(`  docs: ${base}/docs   openapi: ${base}/openapi.json   health: ${base}/healthz`);
console.log(config.ADMIN_TOKEN ? '  admin API: enabled at /admin/v1' : '  admin API: off (set ADMIN_TOKEN to enable /admin/v1)');
if (demo) {
  console.log(`\nDemo organization "${demo.org.name}" (${demo.org.id}) created with these keys (shown once):`);
  for (const k of demo.keys) console.log(`  ${k.key.name.padEnd(28)} ${k.secret}`);
  console.log(`\nTry: curl -H 'X-Service-Key: ${demo.keys[0].secret}' ${base}/v1/leads`);
}

const shutdown = async () => {
  stopSchedules();
  server.close();
  await services.close();
  process.exit(0);
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
