// `npm run bench:infra`: the daily mailbox tick (lib/infra/mailbox_tick.ts) for BENCH_MAILBOXES mailboxes (default
// 10,000) across BENCH_MAILBOXES / 20 clients (500) in BENCH_ORGS organizations (10), on embedded PGlite
// (BENCH_POSTGRES_URL: the production driver to this machine's PostgreSQL, as the other benchmarks). The mailboxes
// have a mix of statuses (warming, ramping, active, reserves, parked, retired), campaigns, and 6 days of health
// history (the tick adds the 7th); one domain in BENCH_FAIL_EVERY (25; 0 = none) starts with `fail-`, so the day
// parks mailboxes, swaps reserves in and proposes purchases (each proposal is a plan change of ~20 statements). Beside it, measured in the same run: one bare bulk UPDATE of the same rows (daily_cap = daily_cap) as
// the baseline. Prints seconds, DB round trips per mailbox and the ratio tick / baseline.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../lib/config';
import { rows } from '../lib/db/types';
import { addDays } from '../lib/infra/mailbox_health';
import { runMailboxTick } from '../lib/infra/mailbox_tick';
import { createOrg } from '../lib/orgs/orgs';
import { createNodeServices } from '../lib/runtime/node';
import { campaigns, clients, domains, mailboxCampaigns, mailboxes, type MailboxStatus } from '../schema';
import { benchAdapters } from './adapters';
import { fmt, table } from './lib';

const MAILBOXES = Number(process.env.BENCH_MAILBOXES ?? 10_000);
const PER_CLIENT = 20;
const CLIENTS = Math.max(1, Math.round(MAILBOXES / PER_CLIENT));
const ORGS = Math.max(1, Math.min(CLIENTS, Number(process.env.BENCH_ORGS ?? 10)));
const PER_DOMAIN = 3;
/** One domain in this many is a `fail-` domain (0: none, a day without parking or proposals). */
const FAIL_EVERY = Number(process.env.BENCH_FAIL_EVERY ?? 25);
// Per client: 20 mailboxes by status, the order they are created in.
const MIX: MailboxStatus[] = [
  ...Array<MailboxStatus>(4).fill('warming'),
  ...Array<MailboxStatus>(4).fill('ramping'),
  ...Array<MailboxStatus>(8).fill('active'),
  ...Array<MailboxStatus>(2).fill('reserve'),
  'parked',
  'retired',
];

const adapters = await benchAdapters('infra');
const dataDir = mkdtempSync(join(tmpdir(), 'ris-bench-infra-'));
const config = loadConfig({ ...adapters.env, DATA_DIR: dataDir, LOG_LEVEL: 'error', ENCRYPTION_KEY: 'c'.repeat(64) });
const services = await createNodeServices(config);
const { db } = services;
const day = new Date().toISOString().slice(0, 10);
const at = new Date(`${day}T00:30:00Z`);

async function seed() {
  let client = 0;
  let domainNo = 0;
  for (let o = 0; o < ORGS; o++) {
    const org = await createOrg(db, { name: `bench infra ${o}`, features: { agency_tools: true, studio: true } });
    const n = Math.floor(CLIENTS / ORGS) + (o < CLIENTS % ORGS ? 1 : 0);
    for (let i = 0; i < n; i += 100) {
      const batch = Math.min(100, n - i);
      const cs = await db
        .insert(clients)
        .values(Array.from({ length: batch }, () => ({ orgId: org.id, name: `bench client ${client++}`, portal: { show_hot: true, show_warm: true, show_cold: true, show_not_interested: false } })))
        .returning({ id: clients.id });
      const camps = await db.insert(campaigns).values(cs.map((c) => ({ orgId: org.id, clientId: c.id, name: 'bench campaign' }))).returning({ id: campaigns.id, clientId: campaigns.clientId });
      const doms = await db
        .insert(domains)
        .values(
          cs.flatMap((c) =>
            Array.from({ length: Math.ceil(PER_CLIENT / PER_DOMAIN) }, () => {
              const k = domainNo++;
              return { orgId: org.id, clientId: c.id, name: `${FAIL_EVERY > 0 && k % FAIL_EVERY === 7 % FAIL_EVERY ? 'fail-' : ''}bench${k}.com`, status: 'dns_ready' as const, priceCents: 999, orderRef: `bench-${k}` };
            }),
          ),
        )
        .returning({ id: domains.id, clientId: domains.clientId, name: domains.name });
      const rowsOut = cs.flatMap((c) => {
        const own = doms.filter((d) => d.clientId === c.id);
        return MIX.map((status, j) => {
          const d = own[Math.floor(j / PER_DOMAIN)];
          const since = status === 'warming' ? addDays(day, -(1 + (j % 10))) : status === 'ramping' ? addDays(day, -(2 + j)) : addDays(day, -20);
          const cap = status === 'active' ? 30 : status === 'ramping' ? 10 : 0;
          return {
            orgId: org.id, clientId: c.id, domainId: d.id, address: `m${j}@${d.name}`, displayName: 'Bench Sender', workspaceId: 'bench-ws',
            providerId: `bench-${d.name}-${j}`, createdByStep: 'bench', status, statusSince: since, dailyCap: cap,
            ...(status === 'parked' && { parkReason: 'bounce_rate', parkedAt: new Date(`${addDays(day, -3)}T00:30:00Z`) }),
            createdAt: new Date(`${addDays(day, -40)}T00:00:00Z`), lastTickDay: addDays(day, -1),
          };
        });
      });
      const made = await db.insert(mailboxes).values(rowsOut).returning({ id: mailboxes.id, clientId: mailboxes.clientId, status: mailboxes.status });
      const campOf = new Map(camps.map((x) => [x.clientId, x.id]));
      await db
        .insert(mailboxCampaigns)
        .values(made.filter((m) => m.status === 'ramping' || m.status === 'active' || m.status === 'parked').map((m) => ({ mailboxId: m.id, campaignId: campOf.get(m.clientId)!, orgId: org.id })));
    }
  }
  // Days of history before the day the tick closes (it adds that one): healthy volumes, a bounce now and then; the
  // `fail-` domains at 5 %, so their sending mailboxes are failing when the day is judged.
  await db.execute(sql`
    insert into mailbox_health_days (mailbox_id, day, org_id, sent, bounced, connected, domain_listed)
    select m.id, ${day}::date - g, m.org_id, 25 + m.daily_cap,
           case when d.name like 'fail-%' then ceil((25 + m.daily_cap) * 0.05)::int when (g + length(m.address)) % 9 = 0 then 1 else 0 end, true, false
    from mailboxes m join domains d on d.id = m.domain_id cross join generate_series(2, 7) g where m.status <> 'retired'`);
}

try {
  const t0 = performance.now();
  await seed();
  const [{ n }] = await rows<{ n: number }>(db, sql`select count(*)::int as n from mailboxes`);
  console.log(`seeded ${fmt(n, 0)} mailboxes, ${CLIENTS} clients, ${ORGS} organizations in ${fmt((performance.now() - t0) / 1000)} s (${adapters.label})\n`);

  const q0 = services.dbStats.queries;
  const t1 = performance.now();
  const r = await runMailboxTick(services, at);
  const tickSeconds = (performance.now() - t1) / 1000;
  const tickQueries = services.dbStats.queries - q0;

  const q1 = services.dbStats.queries;
  const t2 = performance.now();
  await db.execute(sql`update mailboxes set daily_cap = daily_cap`);
  const baseSeconds = (performance.now() - t2) / 1000;
  const baseQueries = services.dbStats.queries - q1;

  const again = await runMailboxTick(services, at);
  console.log(
    table([
      ['what', 'mailboxes', 'seconds', 'DB round trips', 'round trips / mailbox', 'ratio to baseline'],
      ['daily mailbox tick (one day)', fmt(r.mailboxes, 0), fmt(tickSeconds, 2), fmt(tickQueries, 0), fmt(tickQueries / Math.max(1, r.mailboxes), 3), `${fmt(tickSeconds / baseSeconds, 1)}×`],
      ['baseline: bare bulk UPDATE of the same rows', fmt(n, 0), fmt(baseSeconds, 2), fmt(baseQueries, 0), fmt(baseQueries / n, 4), '1.0×'],
    ]),
  );
  console.log(`\nthe day: ${r.health_days} health days stored, ${r.transitions} transitions (${r.parked} parked, ${r.swapped} reserves swapped in), ${r.proposed} plan steps proposed`);
  console.log(`the same day again: ${again.mailboxes} mailboxes touched (idempotent)`);
  if (r.mailboxes === 0 || again.mailboxes !== 0) process.exitCode = 1;
} finally {
  await services.close();
  await adapters.close();
  rmSync(dataDir, { recursive: true, force: true });
}
