// The infrastructure snapshot (agency-tools-and-bridge.md §8): per client, its domains, mailboxes by status, today's
// capacity, what is failing, the ready reserves and the infrastructure steps waiting for approval. Built from OUR
// tables only (never a provider call), refreshed every 10 minutes for every client with domains or mailboxes in a few
// set-based statements per 500 clients, and read by get_infrastructure with its age. A client without a snapshot yet
// gets one built and stored on its first call (age 0), so the answer never waits for the next refresh.
import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { infraSnapshots } from '../../schema';
import { findClient } from '../agency/clients/view';
import { registerTick } from '../clock/ticks';
import { rows, type Db } from '../db/types';
import type { Services } from '../services';
import { FAILING_BOUNCE_RATE } from './mailbox_health';
import { CountsSchema, MAILBOX_STATUSES, type StatusCounts } from './lifecycle_view';

export const SNAPSHOT_TICK = 'infra.snapshot';
export const SNAPSHOT_EVERY_SECONDS = 600;
const CLIENTS_PER_CHUNK = 500;
const INFRA_STEP_KINDS = ['buy_domain', 'setup_dns', 'create_mailboxes'];

export const InfrastructureSchema = z.object({
  domains: z.array(z.object({ name: z.string(), status: z.string(), mailboxes: z.number().int().describe('not retired'), listed: z.boolean() })),
  mailboxes: CountsSchema,
  capacity_today: z.number().int().describe("sends a day the client's ramping and active mailboxes may make"),
  failing: z.number().int().describe('mailboxes still sending or warming that are failing (7-day bounce ≥ 3 %, listed domain, disconnected); parked ones are not counted'),
  reserves_ready: z.number().int().describe('warmed, unattached and not failing: what auto-protect swaps in'),
  waiting_steps: z.number().int().describe('buy_domain, setup_dns and create_mailboxes steps waiting for approval'),
});
export type Infrastructure = z.infer<typeof InfrastructureSchema>;

export const SnapshotAnswerSchema = z.object({
  infrastructure: InfrastructureSchema,
  snapshot: z.object({ taken_at: z.string(), age_seconds: z.number().int() }),
});

const emptyCounts = () => Object.fromEntries(MAILBOX_STATUSES.map((s) => [s, 0])) as StatusCounts;

/** The snapshot bodies of `clientIds` (one org's or many), from four set-based reads. */
export async function buildSnapshots(db: Db, clientIds: string[]): Promise<Map<string, Infrastructure>> {
  const out = new Map<string, Infrastructure>();
  if (clientIds.length === 0) return out;
  const ids = sql.param(clientIds);
  for (const id of clientIds) out.set(id, { domains: [], mailboxes: emptyCounts(), capacity_today: 0, failing: 0, reserves_ready: 0, waiting_steps: 0 });
  const doms = await rows<{ client_id: string; name: string; status: string; listed: boolean; n: number | string }>(
    db,
    sql`select d.client_id, d.name, d.status, d.listed, count(m.id) as n
        from domains d left join mailboxes m on m.domain_id = d.id and m.status <> 'retired'
        where d.client_id = any(${ids}::uuid[]) group by d.id order by d.name`,
  );
  for (const d of doms) out.get(d.client_id)!.domains.push({ name: d.name, status: d.status, mailboxes: Number(d.n), listed: d.listed });
  const boxes = await rows<{ client_id: string; status: keyof StatusCounts; n: number | string; cap: number | string; failing: number | string }>(
    db,
    sql`select m.client_id, m.status, count(*) as n, coalesce(sum(m.daily_cap), 0) as cap,
               count(*) filter (where m.bounce_rate_7d >= ${FAILING_BOUNCE_RATE}::real or not m.connected or d.listed) as failing
        from mailboxes m join domains d on d.id = m.domain_id
        where m.client_id = any(${ids}::uuid[]) group by m.client_id, m.status`,
  );
  for (const b of boxes) {
    const s = out.get(b.client_id)!;
    const n = Number(b.n);
    const failing = Number(b.failing);
    s.mailboxes[b.status] = n;
    if (b.status === 'ramping' || b.status === 'active') s.capacity_today += Number(b.cap);
    if (b.status === 'reserve') s.reserves_ready += n - failing;
    if (b.status !== 'parked' && b.status !== 'retired') s.failing += failing;
  }
  const steps = await rows<{ client_id: string; n: number | string }>(
    db,
    sql`select client_id, count(*) as n from plan_steps
        where client_id = any(${ids}::uuid[]) and status = 'waiting' and kind = any(${sql.param(INFRA_STEP_KINDS)}::text[]) group by client_id`,
  );
  for (const s of steps) out.get(s.client_id)!.waiting_steps = Number(s.n);
  return out;
}

/** Builds and stores the snapshots of `clientIds` (of `orgOf`'s organizations) in one upsert. */
async function storeSnapshots(db: Db, clients: { id: string; orgId: string }[], at: Date) {
  const bodies = await buildSnapshots(db, clients.map((c) => c.id));
  await db.execute(sql`
    insert into infra_snapshots (client_id, org_id, taken_at, body)
    select t.client_id, t.org_id, ${at.toISOString()}::timestamptz, t.body::jsonb
    from unnest(${sql.param(clients.map((c) => c.id))}::uuid[], ${sql.param(clients.map((c) => c.orgId))}::uuid[], ${sql.param(clients.map((c) => JSON.stringify(bodies.get(c.id))))}::text[])
         as t(client_id, org_id, body)
    on conflict (client_id) do update set org_id = excluded.org_id, taken_at = excluded.taken_at, body = excluded.body`);
  return bodies;
}

/** The 10-minute refresh: every client with domains or mailboxes (or only `clientIds`). Returns how many it stored. */
export async function refreshSnapshots(services: Services, at: Date, opts: { clientIds?: string[] } = {}): Promise<number> {
  const only = opts.clientIds ? sql`and c.id = any(${sql.param(opts.clientIds)}::uuid[])` : sql``;
  const due = await rows<{ id: string; org_id: string }>(
    services.db,
    sql`select c.id, c.org_id from clients c
        where (exists (select 1 from domains d where d.client_id = c.id) or exists (select 1 from mailboxes m where m.client_id = c.id)) ${only}
        order by c.id`,
  );
  for (let i = 0; i < due.length; i += CLIENTS_PER_CHUNK) {
    await storeSnapshots(services.db, due.slice(i, i + CLIENTS_PER_CHUNK).map((c) => ({ id: c.id, orgId: c.org_id })), at);
  }
  return due.length;
}

/** get_infrastructure: the stored snapshot with its age, or (first call) one built and stored now. */
export async function getInfrastructure(db: Db, orgId: string, clientId: string, now: Date): Promise<z.infer<typeof SnapshotAnswerSchema>> {
  const client = await findClient(db, orgId, clientId);
  const [stored] = await db.select().from(infraSnapshots).where(and(eq(infraSnapshots.clientId, client.id), eq(infraSnapshots.orgId, orgId)));
  if (stored) {
    const age = Math.max(0, Math.floor((now.getTime() - stored.takenAt.getTime()) / 1000));
    return { infrastructure: stored.body as Infrastructure, snapshot: { taken_at: stored.takenAt.toISOString(), age_seconds: age } };
  }
  const bodies = await storeSnapshots(db, [{ id: client.id, orgId }], now);
  return { infrastructure: bodies.get(client.id)!, snapshot: { taken_at: now.toISOString(), age_seconds: 0 } };
}

export function registerSnapshotTick() {
  // A snapshot only records what the tables hold, so under the simulated clock it coalesces (lib/clock/ticks.ts).
  registerTick(
    SNAPSHOT_TICK,
    { everySeconds: SNAPSHOT_EVERY_SECONDS },
    async (services, at) => {
      await refreshSnapshots(services, at);
    },
    { coalesce: true },
  );
}
