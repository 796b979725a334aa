// The push half of `npm run bench:engine` (bench/engine.ts calls benchPush()); alone: `npx tsx bench/engine_push.ts`.
// BENCH_LEADS (default 1,000) approved, written leads pushed by the push_batch step's run into the simulated
// sequencer (PGlite, or PostgreSQL with BENCH_POSTGRES_URL): chunks of 200 leads, the never-mail check right before
// each, the sequencer's rows in the chunk's transaction. Then the same run again (a duplicated delivery) and one
// simulated sending day. Counted afterwards: leads lost (approved but not in the sequencer or without their pushed
// row) and doubled (a lead in the sequencer or in the campaign's rows twice). Baseline, in the same run: a bare bulk
// insert of the same rows (the campaign's lead rows and the sequencer's lead rows, 500 a statement, one transaction).
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { eq, sql } from 'drizzle-orm';
import { pushBatchStep } from '../lib/plans/steps/push_batch';
import { loadConfig } from '../lib/config';
import { rows as select } from '../lib/db/types';
import { createCampaign, createClient, createOrg } from '../lib/orgs/admin';
import { runSimSequencerDay } from '../lib/ports/sequencer/sim_day';
import { createNodeServices, type NodeServices } from '../lib/runtime/node';
import { batches, batchLeads, domains, mailboxCampaigns, mailboxes, organizations, poolLeads, simSequencerCampaigns, simSequencerLeads, studioCampaignLeads, studioCampaigns, type WrittenMail } from '../schema';
import { benchAdapters } from './adapters';
import { fmt, table } from './lib';

const LEADS = Number(process.env.BENCH_LEADS ?? 1000);

const mails = (i: number): WrittenMail[] => [
  { step: 1, subject: `Quick idea for Company ${i}`, delay_days: 0, body: `Hi Name${i}, a short idea for Company ${i}.`, sentences: [{ text: `Hi Name${i}, a short idea for Company ${i}.`, source: { kind: 'sequence', ref: 'step 1' } }] },
  { step: 2, subject: null, delay_days: 3, body: `Any thoughts, Name${i}?`, sentences: [{ text: `Any thoughts, Name${i}?`, source: { kind: 'sequence', ref: 'step 2' } }] },
  { step: 3, subject: 'Last note', delay_days: 4, body: `Closing the loop, Name${i}.`, sentences: [{ text: `Closing the loop, Name${i}.`, source: { kind: 'sequence', ref: 'step 3' } }] },
];

/** An organization (push gate open) whose client has an approved batch of LEADS written leads and 20 sending mailboxes. */
async function seed(services: NodeServices, tag: string) {
  const db = services.db;
  const org = await createOrg(db, { name: `bench-push-${tag}`, features: { agency_tools: true, studio: true, crm: false } });
  await db.update(organizations).set({ pushGateOpen: true }).where(eq(organizations.id, org.id));
  const client = await createClient(db, org.id, { name: 'Bench client' });
  const core = await createCampaign(db, org.id, { name: 'Bench Studio campaign', client_id: client.id }, new Date());
  const [domain] = await db.insert(domains).values({ orgId: org.id, clientId: client.id, name: `bench-${tag}.com`, status: 'dns_ready', priceCents: 999, orderRef: `bench-${tag}` }).returning();
  const boxes = await db
    .insert(mailboxes)
    .values(Array.from({ length: 20 }, (_, i) => ({ orgId: org.id, clientId: client.id, domainId: domain.id, address: `s${i}@bench-${tag}.com`, displayName: 'Bench', workspaceId: 'sim-ws', providerId: `p${i}`, createdByStep: 'bench', status: 'active' as const, statusSince: '2026-01-01', dailyCap: 60 })))
    .returning({ id: mailboxes.id });
  await db.insert(mailboxCampaigns).values(boxes.map((m) => ({ mailboxId: m.id, campaignId: core.id, orgId: org.id })));
  const pool: { id: string }[] = [];
  for (let i = 0; i < LEADS; i += 500) {
    const n = Math.min(500, LEADS - i);
    pool.push(
      ...(await db
        .insert(poolLeads)
        .values(Array.from({ length: n }, (_, k) => ({ orgId: org.id, clientId: client.id, email: `p${i + k}@lead${i + k}-${tag}.example.org`, firstName: `Name${i + k}`, lastName: 'Last', company: `Company ${i + k}`, domain: `lead${i + k}-${tag}.example.org`, status: 'in_batch' as const })))
        .returning({ id: poolLeads.id })),
    );
  }
  const [batch] = await db.insert(batches).values({ orgId: org.id, clientId: client.id, status: 'approved', size: LEADS, createdBy: 'bench' }).returning();
  for (let i = 0; i < LEADS; i += 500) {
    await db.insert(batchLeads).values(pool.slice(i, i + 500).map((p, k) => ({ batchId: batch.id, poolLeadId: p.id, orgId: org.id, clientId: client.id, position: i + k + 1, review: 'approved' as const, mails: mails(i + k), writes: 1 })));
  }
  const [campaign] = await db.insert(studioCampaigns).values({ orgId: org.id, clientId: client.id, batchId: batch.id, name: 'Bench push', campaignId: core.id, sequencer: 'sim', createdBy: 'bench' }).returning();
  return { org, client, batch, campaign, pool };
}

const now = () => performance.now();

export async function benchPush(): Promise<{ rows: string[][]; lost: number; doubled: number; pushMs: number; baselineMs: number; ratio: number }> {
  const adapters = await benchAdapters('engine_push');
  const dir = mkdtempSync(join(tmpdir(), 'ris-bench-push-'));
  const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'error', ENCRYPTION_KEY: 'c'.repeat(64), HOST: '127.0.0.1', PORT: '0', CLOCK: 'wall', SEQUENCER: 'sim', ...adapters.env });
  const services = await createNodeServices(config);
  const db = services.db;
  try {
    const s = await seed(services, randomUUID().slice(0, 8));
    const ctx = { services, orgId: s.org.id, clientId: s.client.id, stepId: randomUUID(), planId: randomUUID(), now: new Date(), actor: 'system' };
    const params = { studio_campaign_id: s.campaign.id, batch_id: s.batch.id, name: s.campaign.name };
    let t0 = now();
    const pushed = await pushBatchStep.run(ctx, params);
    const pushMs = now() - t0;
    t0 = now();
    const repeat = await pushBatchStep.run(ctx, params);
    const repeatMs = now() - t0;
    t0 = now();
    const day = await runSimSequencerDay(db, config.SIM_SEED, s.org.id, new Date().toISOString().slice(0, 10));
    const dayMs = now() - t0;

    const [check] = await select<{ lost: number; doubled_rows: number; doubled_sim: number }>(
      db,
      sql`select
            (select count(*)::int from batch_leads bl where bl.batch_id = ${s.batch.id}::uuid and (
               not exists (select 1 from studio_campaign_leads c where c.studio_campaign_id = ${s.campaign.id}::uuid and c.pool_lead_id = bl.pool_lead_id and c.outcome = 'pushed')
               or not exists (select 1 from sim_sequencer_leads l join pool_leads p on p.email = l.email where p.id = bl.pool_lead_id and l.org_id = ${s.org.id}::uuid))) as lost,
            (select count(*) - count(distinct pool_lead_id) from studio_campaign_leads where studio_campaign_id = ${s.campaign.id}::uuid)::int as doubled_rows,
            (select count(*) - count(distinct email) from sim_sequencer_leads where org_id = ${s.org.id}::uuid)::int as doubled_sim`,
    );
    const lost = Number(check.lost);
    const doubled = Number(check.doubled_rows) + Number(check.doubled_sim) + Math.max(0, Number(repeat.pushed) - Number(pushed.pushed));

    // Baseline: the same rows written bare, into a second seeded campaign (no checks, no sequencer, no chunk locks).
    const b = await seed(services, randomUUID().slice(0, 8));
    const [simCampaign] = await db.insert(simSequencerCampaigns).values({ orgId: b.org.id, reference: b.campaign.id, name: 'baseline', mailboxes: [] }).returning();
    const emails = await db.select({ id: poolLeads.id, email: poolLeads.email }).from(poolLeads).where(eq(poolLeads.clientId, b.client.id));
    t0 = now();
    await db.transaction(async (tx) => {
      for (let i = 0; i < emails.length; i += 500) {
        const part = emails.slice(i, i + 500);
        await tx.insert(studioCampaignLeads).values(part.map((e) => ({ studioCampaignId: b.campaign.id, poolLeadId: e.id, orgId: b.org.id, email: e.email!, outcome: 'pushed' as const })));
        await tx.insert(simSequencerLeads).values(part.map((e, k) => ({ orgId: b.org.id, campaignId: simCampaign.id, email: e.email!, mails: mails(i + k), fields: {}, nextStep: 1 })));
      }
    });
    const baselineMs = now() - t0;
    const ratio = pushMs / baselineMs;
    const perSec = (ms: number) => fmt((LEADS / ms) * 1000, 0);
    const rows = [
      ['path', 'ms', 'leads/s', 'vs bare insert'],
      ['bare bulk insert of the same rows (baseline)', fmt(baselineMs), perSec(baselineMs), '1.0×'],
      ["push step run (chunks of 200, never-mail check, sequencer calls)", fmt(pushMs), perSec(pushMs), `${fmt(ratio)}× the time`],
      ['the same run again (duplicated delivery)', fmt(repeatMs), '-', `${fmt(repeatMs / baselineMs)}× the time`],
      [`one simulated sending day (${day.sent + day.bounced + day.replied} mails)`, fmt(dayMs), '-', `${fmt(dayMs / baselineMs)}× the time`],
    ];
    return { rows, lost, doubled, pushMs, baselineMs, ratio };
  } finally {
    await services.close();
    rmSync(dir, { recursive: true, force: true });
    await adapters.close();
  }
}

export function printPush(r: Awaited<ReturnType<typeof benchPush>>) {
  console.log(`\nStudio engine: pushing ${LEADS} approved leads through the push step into the simulated sequencer\n`);
  console.log(table(r.rows));
  console.log(`\nlost: ${r.lost}, doubled: ${r.doubled}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const r = await benchPush();
  printPush(r);
  if (r.lost || r.doubled) process.exitCode = 1;
}
