// Rows per second of the one import pipeline (importLeadRows: map, dedupe against the call and the pool, the
// never-mail check, snapshot and replies, the DNS scan through the simulated port, ICP match, custom columns,
// ON CONFLICT insert, atomic counters) on 10,000 rows sent as import_leads sends them: chunks of 500, one
// transaction each, joined by import_id. Baseline in the same run: a bare insert of the same 10,000 rows, already
// mapped, in chunks of 500, one transaction each, nothing checked. Median of RUNS rounds, each on a fresh client.
// `npx tsx bench/import_pipeline.ts` runs it alone; bench:bridge imports it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { loadConfig } from '../lib/config';
import { createClient, createOrg } from '../lib/orgs/admin';
import { importLeadRows } from '../lib/pool/import';
import { createNodeServices } from '../lib/runtime/node';
import { icps, poolLeads, suppressions } from '../schema';
import { fmt, table } from './lib';

const ROWS = 10_000;
const CHUNK = 500;
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

export type ImportPipelineResult = {
  rows: number;
  chunk: number;
  runs: number;
  /** importLeadRows over all chunks, median ms. */
  ms: number;
  rowsPerSec: number;
  /** The bare insert of the same rows, median ms. */
  baselineMs: number;
  baselineRowsPerSec: number;
  /** How many times slower than the bare insert. */
  ratio: number;
  /** The same 10,000 rows again (all duplicates), median ms. */
  repeatMs: number;
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Rows as a Clay-like table sends them: a work and a personal email, names, company, website, a few custom columns. */
const rowsOf = (round: number) =>
  Array.from({ length: ROWS }, (_, i) => ({
    'Work Email': `person.${i}@company-${round}-${i % 2_000}.com`,
    'Personal Email': `person${i}@gmail.com`,
    'First Name': `First${i}`,
    'Last Name': 'Last',
    'Company Name': `Company ${i % 2_000}`,
    Website: `https://www.company-${round}-${i % 2_000}.com`,
    'Job Title': i % 3 ? 'Head of Sales' : 'CTO',
    Country: i % 2 ? 'Germany' : 'France',
    Phone: `+49 30 ${100_000 + i}`,
    'Employee Count': 10 + (i % 500),
  }));

export async function benchImportPipeline(): Promise<ImportPipelineResult> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ris-bench-import-'));
  const config = loadConfig({ ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, LOG_LEVEL: 'error', PORT: '0', DNS: 'sim' });
  const services = await createNodeServices(config);
  try {
    const db = services.db;
    const org = await createOrg(db, { name: 'bench import', features: { agency_tools: true, studio: true } });
    const pipeline: number[] = [];
    const repeat: number[] = [];
    const bare: number[] = [];
    for (let round = 0; round < RUNS; round++) {
      const rows = rowsOf(round);
      const runPipeline = async () => {
        const client = await createClient(db, org.id, { name: `pipeline ${round}` });
        // A never-mail list and two ICPs, so the checks do real work (200 of the rows are blocked by domain).
        await db.insert(suppressions).values(Array.from({ length: 1_000 }, (_, i) => ({ orgId: org.id, clientId: client.id, kind: 'domain' as const, value: `blocked-${i}.example`, reason: 'import' as const, createdBy: 'bench' })));
        await db.insert(suppressions).values(Array.from({ length: 10 }, (_, i) => ({ orgId: org.id, clientId: client.id, kind: 'domain' as const, value: `company-${round}-${i}.com`, reason: 'import' as const, createdBy: 'bench' })));
        await db.insert(icps).values([
          { orgId: org.id, clientId: client.id, name: 'French CTOs', rules: { countries: ['France'], titles: ['cto'] } },
          { orgId: org.id, clientId: client.id, name: 'Sales', rules: { titles: ['sales'] } },
        ]);
        const ctx = { services, orgId: org.id, clientId: client.id, actor: 'key:bench', now: new Date() };
        const once = async () => {
          let importId: string | undefined;
          let added = 0;
          const t = performance.now();
          for (let i = 0; i < rows.length; i += CHUNK) {
            const r = await db.transaction((tx) => importLeadRows(tx, ctx, rows.slice(i, i + CHUNK), { kind: 'tool', importId }));
            importId = r.import!.id;
            added += r.counts.added;
          }
          return { ms: performance.now() - t, added };
        };
        const first = await once();
        if (first.added !== ROWS - 50) throw new Error(`expected ${ROWS - 50} added, got ${first.added}`);
        pipeline.push(first.ms);
        const again = await once();
        if (again.added !== 0) throw new Error('the repeat added leads');
        repeat.push(again.ms);
      };
      const runBare = async () => {
        const client = await createClient(db, org.id, { name: `bare ${round}` });
        const values = rows.map((r) => ({
          orgId: org.id,
          clientId: client.id,
          email: r['Work Email'],
          firstName: r['First Name'],
          lastName: r['Last Name'],
          fullName: `${r['First Name']} ${r['Last Name']}`,
          company: r['Company Name'],
          website: r.Website,
          domain: r['Work Email'].split('@')[1],
          title: r['Job Title'],
          country: r.Country,
          custom: { phone: r.Phone, employee_count: r['Employee Count'] },
        }));
        const t = performance.now();
        for (let i = 0; i < values.length; i += CHUNK) await db.transaction((tx) => tx.insert(poolLeads).values(values.slice(i, i + CHUNK)).then(() => undefined));
        bare.push(performance.now() - t);
      };
      // Alternate which goes first so warm-up and drift hit both alike.
      if (round % 2) {
        await runBare();
        await runPipeline();
      } else {
        await runPipeline();
        await runBare();
      }
    }
    const ms = median(pipeline);
    const baselineMs = median(bare);
    return {
      rows: ROWS,
      chunk: CHUNK,
      runs: RUNS,
      ms,
      rowsPerSec: (ROWS / ms) * 1000,
      baselineMs,
      baselineRowsPerSec: (ROWS / baselineMs) * 1000,
      ratio: ms / baselineMs,
      repeatMs: median(repeat),
    };
  } finally {
    await services.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export function formatImportPipeline(r: ImportPipelineResult): string {
  return [
    `Import pipeline, ${r.rows.toLocaleString('en')} rows in chunks of ${r.chunk}, PGlite, median of ${r.runs}:`,
    table([
      ['what', 'ms', 'rows/s', 'vs bare insert'],
      ['bare INSERT of mapped rows (baseline)', fmt(r.baselineMs, 0), fmt(r.baselineRowsPerSec, 0), '1.00x'],
      ['importLeadRows (new rows)', fmt(r.ms, 0), fmt(r.rowsPerSec, 0), `${fmt(r.ratio, 2)}x`],
      ['importLeadRows (repeat, all duplicates)', fmt(r.repeatMs, 0), fmt((r.rows / r.repeatMs) * 1000, 0), `${fmt(r.repeatMs / r.baselineMs, 2)}x`],
    ]),
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(formatImportPipeline(await benchImportPipeline()));
}
