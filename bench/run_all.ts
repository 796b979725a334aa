// `npm run bench`: every benchmark, on the embedded defaults and on this machine's PostgreSQL and Redis through
// the production adapters, then the soak; writes bench/RESULTS.md (figures beside their baselines, ratios, round
// trips, the machine and the date). Each benchmark runs in its own process so one cannot slow the next.
// `npx tsx bench/run_all.ts read_paths mcp` runs only the benchmarks whose script names match and replaces their
// sections in bench/RESULTS.md, keeping the others' figures (each section is dated).
import { spawn } from 'node:child_process';
import { cpus, totalmem } from 'node:os';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const PG = process.env.BENCH_POSTGRES_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS = process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

const PRODUCTION = { BENCH_POSTGRES_URL: PG, BENCH_REDIS_URL: REDIS };
const runs: { title: string; script: string; env: Record<string, string> }[] = [
  { title: 'Read paths: embedded (PGlite, in-process limits)', script: 'bench/read_paths.ts', env: {} },
  { title: 'Read paths: production adapters (Neon driver → PostgreSQL, Upstash → Redis)', script: 'bench/read_paths.ts', env: PRODUCTION },
  { title: 'MCP tool server: embedded (PGlite, in-process limits)', script: 'bench/mcp.ts', env: {} },
  { title: 'MCP tool server: production adapters (Neon driver → PostgreSQL, Upstash → Redis)', script: 'bench/mcp.ts', env: PRODUCTION },
  { title: 'Webhook deliveries: embedded (PGlite; embedded scheduler and QStash emulator)', script: 'bench/webhooks.ts', env: {} },
  { title: 'Webhook deliveries: production adapters (Neon driver → PostgreSQL; embedded scheduler and QStash emulator)', script: 'bench/webhooks.ts', env: PRODUCTION },
  { title: 'CRM sync on 100,000 leads: embedded (PGlite, in-process limits)', script: 'bench/crm.ts', env: {} },
  { title: 'CRM sync on 100,000 leads: production adapters (Neon driver → PostgreSQL, Upstash → Redis)', script: 'bench/crm.ts', env: PRODUCTION },
  { title: 'Inbound reply webhooks: embedded (PGlite, in-process limits)', script: 'bench/inbound.ts', env: {} },
  { title: 'Inbound reply webhooks: production adapters (Neon driver → PostgreSQL, Upstash → Redis)', script: 'bench/inbound.ts', env: PRODUCTION },
  { title: 'Table-tool bridge at 1,200 rows/min, import pipeline, never-mail import: embedded (PGlite, in-process limits)', script: 'bench/bridge.ts', env: {} },
  { title: 'Table-tool bridge at 1,200 rows/min: production adapters (Neon driver → PostgreSQL, Upstash → Redis)', script: 'bench/bridge.ts', env: PRODUCTION },
  { title: 'Formula runs over 10,000 leads: embedded (PGlite)', script: 'bench/runs.ts', env: {} },
  { title: 'Plan steps, 1,000 plans × 5 steps due at once: embedded (PGlite; embedded scheduler and QStash emulator)', script: 'bench/plans.ts', env: {} },
  { title: 'Daily mailbox tick, 10,000 mailboxes across 500 clients: embedded (PGlite)', script: 'bench/infra.ts', env: {} },
  { title: 'Studio engine: writing and pushing a 1,000-lead batch: embedded (PGlite, in-process limits)', script: 'bench/engine.ts', env: {} },
  { title: 'Client portal lead list on 10,000 leads beside the CRM JSON list: embedded (PGlite, in-process limits)', script: 'bench/portal.ts', env: {} },
  { title: 'Client portal lead list on 10,000 leads beside the CRM JSON list: production adapters (Neon driver → PostgreSQL, Upstash → Redis)', script: 'bench/portal.ts', env: PRODUCTION },
  { title: 'Soak: fixed rate across the core endpoints, RSS every 10 s (embedded)', script: 'bench/soak.ts', env: {} },
];

function run(script: string, env: Record<string, string>): Promise<{ code: number; output: string; seconds: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn('npx', ['tsx', script], { env: { ...process.env, ...env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
      process.stdout.write(d);
    });
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) => resolve({ code: code ?? 1, output, seconds: Math.round((Date.now() - started) / 1000) }));
  });
}

const cpuLabel = `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}`;
const only = process.argv.slice(2);
const sections = new Map<string, string>();
let failed = 0;
for (const r of runs) {
  if (only.length && !only.some((o) => r.script.includes(o))) continue;
  console.log(`\n=== ${r.title}`);
  const { code, output, seconds } = await run(r.script, r.env);
  if (code !== 0) failed++;
  const shown = output.split('\n').filter((l) => !/^npm warn/.test(l)).join('\n').trim();
  const day = new Date().toISOString().slice(0, 10);
  sections.set(r.title, `## ${r.title}\n\n\`npx tsx ${r.script}\`${Object.keys(r.env).length ? ` with ${Object.keys(r.env).join(', ')}` : ''} — ${seconds} s, exit ${code}, ${day} on ${cpuLabel}\n\n\`\`\`\n${shown}\n\`\`\`\n`);
}

// A partial run keeps the sections it did not run, as the file had them, in the order of `runs`.
const kept = new Map<string, string>();
let earlier: string | undefined; // the last full run's "Measured … on …" line, for the sections that do not name their own
if (only.length && existsSync('bench/RESULTS.md')) {
  const [head, ...parts] = readFileSync('bench/RESULTS.md', 'utf8').split(/^(?=## )/m);
  earlier = head.match(/^(?:Sections without a date of their own: )?(Measured .*)$/m)?.[1];
  for (const part of parts) kept.set(part.slice(3, part.indexOf('\n')).trim(), part.trimEnd() + '\n');
}
const titles = [...runs.map((r) => r.title), ...kept.keys()].filter((t, i, all) => all.indexOf(t) === i);
const body = titles.map((t) => sections.get(t) ?? kept.get(t)).filter((s): s is string => s !== undefined);
const machine = `${cpuLabel}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${process.platform}`;
const measured = only.length
  ? `Re-measured ${new Date().toISOString()} on ${machine}: ${[...sections.keys()].join('; ')}. The other sections keep the figures of their own run.` +
    (earlier ? `\nSections without a date of their own: ${earlier}` : '')
  : `Measured ${new Date().toISOString()} on ${machine}.`;
writeFileSync(
  'bench/RESULTS.md',
  `# Benchmark results\n\n${measured}\n` +
    `These machines are shared and noisy: read the ratios against the baseline measured in the same run, not the absolute times.\n\n` +
    body.join('\n'),
);
console.log(`\nwrote bench/RESULTS.md (${sections.size} benchmarks run, ${body.length - sections.size} kept, ${failed} failed)`);
process.exit(failed ? 1 : 0);
