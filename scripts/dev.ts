// `npm run dev`: every resource group in one Node process on the embedded defaults (or whatever the
// environment configures), with a demo organization on a new data dir. `npm run dev -- --new-keys` prints
// fresh keys for the existing demo organization.
import { loadConfig } from '../lib/config';
import { demoSignInLinks, existingDemoOrg, queueDemoDraft, seedDemoOrg } from '../lib/orgs/demo';
import { createNodeServices } from '../lib/runtime/node';
import { serveNode, startEmbeddedSchedules } from './node_server';

const config = loadConfig(process.env);
const newKeys = process.argv.includes('--new-keys');
const step = (text: string) => console.log(`… ${text}`);

step(config.DATABASE_URL ? 'connecting to Postgres (DATABASE_URL) and applying migrations' : `opening the embedded database in ${config.DATA_DIR} and applying migrations (the first start takes a few seconds)`);
const services = await createNodeServices(config);
// Bind before creating the demo organization: a new organization's keys are shown once, so they must never be
// created by a start that then cannot listen (another dev server on the port).
const server = await serveNode(services, config.HOST, config.PORT).catch(async (err: NodeJS.ErrnoException) => {
  await services.close().catch(() => undefined);
  if (err.code === 'EADDRINUSE') {
    console.error(`\nPort ${config.PORT} on ${config.HOST} is taken (another \`npm run dev\`?). Stop it, or start on another port: PORT=8788 npm run dev`);
    process.exit(1);
  }
  throw err;
});
step('checking for the demo organization');
const created = await seedDemoOrg(services.db, services.classify, services.clock.now());
if (created) await queueDemoDraft(services, created.org.id, created.keys[0].key);
const demo = created ?? (await existingDemoOrg(services.db, { newKeys }));
const links = demo ? await demoSignInLinks(services.db, config, services.clock.now(), demo.org.id) : null;
const stopSchedules = startEmbeddedSchedules(services);

const base = `http://${config.HOST}:${server.port}`;
console.log(`\nReply Intelligence Service listening on ${base}`);
console.log(`  database: ${config.DATABASE_URL ? 'Postgres (DATABASE_URL)' : `embedded PGlite in ${config.DATA_DIR}`}; limits: ${services.limits.kind}`);
console.log(`  docs: ${base}/docs   openapi: ${base}/openapi.json   health: ${base}/healthz`);
console.log(config.ADMIN_TOKEN ? '  admin API: enabled at /admin/v1' : '  admin API: off (set ADMIN_TOKEN to enable /admin/v1)');
if (demo && demo.keys.length) {
  console.log(`\nDemo organization "${demo.org.name}" (${demo.org.id}) — new keys (shown once):`);
  for (const k of demo.keys) console.log(`  ${k.key.name.padEnd(28)} ${k.secret}`);
  console.log(`\nTry: curl -H 'X-Service-Key: ${demo.keys[0].secret}' ${base}/v1/leads`);
} else if (demo) {
  console.log(`\nDemo organization "${demo.org.name}" (${demo.org.id}): its keys were printed when it was created.`);
  console.log('  New keys: stop the server and run `npm run dev -- --new-keys`, or delete the data dir to start afresh.');
}
if (links) {
  console.log('\nPages (sign-in links work once, for 15 minutes; every start prints new ones):');
  console.log(`  review desk (agency people)        ${links.desk}`);
  if (links.portal) console.log(`  client portal (${links.clientName})  ${links.portal}`);
}
console.log('\nCtrl-C stops the server.');

let stopping = false;
const shutdown = async (signal: string) => {
  // A second signal (an impatient Ctrl-C) exits at once; otherwise the database is closed cleanly first.
  if (stopping) process.exit(1);
  stopping = true;
  console.log(`\n${signal}: stopping…`);
  const force = setTimeout(() => {
    console.error('could not stop cleanly within 10 s; exiting');
    process.exit(1);
  }, 10_000);
  force.unref();
  stopSchedules();
  server.close();
  (server as { closeAllConnections?: () => void }).closeAllConnections?.(); // keep-alive sockets would hold close() open
  await services.close().catch((err) => console.error('closing the database failed:', err));
  process.exit(0);
};
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGHUP', () => void shutdown('SIGHUP'));
