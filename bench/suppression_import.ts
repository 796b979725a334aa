// The 20,000-entry never-mail import (agency spec §8; goal ≤ 5 s on the embedded database): import_suppressions'
// verb (parse, normalise, deduplicate, one unnest insert with ON CONFLICT DO NOTHING, the audit row, one
// transaction) beside a bare baseline in the same run: plain multi-row INSERTs of the same 20,000 rows (chunks of
// 4,000 rows, under PostgreSQL's 65,535 parameters per statement), no parsing, no conflict handling, no audit.
// Also the repeat (every entry already listed, adds 0) and the preview (stores nothing). Median of RUNS rounds,
// each on a fresh client. `npx tsx bench/suppression_import.ts` runs it alone; bench:bridge imports it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { actorOf, type AgencyCall } from '../lib/agency/operation';
import { resolveApiKey } from '../lib/auth/keys';
import { loadConfig } from '../lib/config';
import { createClient, createKey, createOrg } from '../lib/orgs/admin';
import { importSuppressions, previewSuppressionsImport } from '../lib/pool/suppressions';
import { createNodeServices } from '../lib/runtime/node';
import { suppressions } from '../schema';
import { fmt, table } from './lib';

const ENTRIES = 20_000;
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const GOAL_MS = 5_000;

export type SuppressionImportResult = {
  entries: number;
  runs: number;
  /** import_suppressions' verb, median ms. */
  ms: number;
  /** The bare multi-row insert of the same rows, median ms. */
  baselineMs: number;
  /** The same import again (all listed, adds 0), median ms. */
  repeatMs: number;
  /** preview_suppressions_import's verb (stores nothing), median ms. */
  previewMs: number;
  ratio: number;
  goalMs: number;
  withinGoal: boolean;
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Half addresses, half domains, some in mixed case and with spaces, as a pasted customer list looks. */
const entriesOf = (round: number) =>
  Array.from({ length: ENTRIES }, (_, i) => (i % 2 ? `Person.${i}@Customer-${round}-${i % 997}.com ` : `customer-${round}-${i}.example.org`));

export async function benchSuppressionImport(): Promise<SuppressionImportResult> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ris-bench-suppressions-'));
  const config = loadConfig({ ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, LOG_LEVEL: 'error', PORT: '0' });
  const services = await createNodeServices(config);
  try {
    const db = services.db;
    const org = await createOrg(db, { name: 'bench suppressions', features: { agency_tools: true, studio: true } });
    const { secret } = await createKey(db, org.id, { name: 'bench assistant', kind: 'agency', scopes: [] });
    const resolved = await resolveApiKey(db, services.keyCache, secret, Date.now());
    if (!resolved) throw new Error('bench key did not resolve');
    const call = (): AgencyCall => ({ services, auth: resolved.auth, via: 'rest', actor: actorOf(resolved.auth, 'rest'), now: new Date() });

    const verb: number[] = [];
    const repeat: number[] = [];
    const preview: number[] = [];
    const bare: number[] = [];
    for (let round = 0; round < RUNS; round++) {
      const entries = entriesOf(round);
      // Alternate which goes first so warm-up and drift hit both alike.
      const runVerb = async () => {
        const client = await createClient(db, org.id, { name: `verb ${round}` });
        let t = performance.now();
        const out = await importSuppressions(call(), { client_id: client.id, entries });
        verb.push(performance.now() - t);
        if (out.added !== ENTRIES) throw new Error(`expected ${ENTRIES} added, got ${out.added}`);
        t = performance.now();
        const again = await importSuppressions(call(), { client_id: client.id, entries });
        repeat.push(performance.now() - t);
        if (again.added !== 0) throw new Error('the repeat added entries');
        t = performance.now();
        await previewSuppressionsImport(call(), { client_id: client.id, entries });
        preview.push(performance.now() - t);
      };
      const runBare = async () => {
        const client = await createClient(db, org.id, { name: `bare ${round}` });
        const rows = entries.map((e) => {
          const value = e.trim().toLowerCase();
          return { orgId: org.id, clientId: client.id, kind: value.includes('@') ? ('email' as const) : ('domain' as const), value, reason: 'import' as const, createdBy: 'bench' };
        });
        const t = performance.now();
        await db.transaction(async (tx) => {
          for (let i = 0; i < rows.length; i += 4_000) await tx.insert(suppressions).values(rows.slice(i, i + 4_000));
        });
        bare.push(performance.now() - t);
      };
      if (round % 2) {
        await runBare();
        await runVerb();
      } else {
        await runVerb();
        await runBare();
      }
    }
    const ms = median(verb);
    const baselineMs = median(bare);
    return { entries: ENTRIES, runs: RUNS, ms, baselineMs, repeatMs: median(repeat), previewMs: median(preview), ratio: ms / baselineMs, goalMs: GOAL_MS, withinGoal: ms <= GOAL_MS };
  } finally {
    await services.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export function formatSuppressionImport(r: SuppressionImportResult): string {
  return [
    `Never-mail import, ${r.entries.toLocaleString('en')} entries, PGlite, median of ${r.runs}:`,
    table([
      ['what', 'ms', 'vs bare insert'],
      ['bare multi-row INSERT (baseline)', fmt(r.baselineMs, 0), '1.00x'],
      ['import_suppressions (new entries)', fmt(r.ms, 0), `${fmt(r.ratio, 2)}x`],
      ['import_suppressions (repeat, adds 0)', fmt(r.repeatMs, 0), `${fmt(r.repeatMs / r.baselineMs, 2)}x`],
      ['preview_suppressions_import', fmt(r.previewMs, 0), `${fmt(r.previewMs / r.baselineMs, 2)}x`],
    ]),
    `goal ≤ ${r.goalMs} ms: ${r.withinGoal ? 'met' : 'NOT met'}`,
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(formatSuppressionImport(await benchSuppressionImport()));
}
