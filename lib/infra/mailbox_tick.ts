// The daily mailbox tick (agency-operator.md §4 "Mailbox lifecycle", agency-tools-and-bridge.md §8): for every
// organization whose local day has begun, each non-retired mailbox not yet ticked that day gets one pass that
// closes the day before (asks the warm-up/health port what it sent and bounced, stores the day, recomputes its 7-day
// bounce rate) and opens the new day (warming → ramping or reserve, ramping → active, the day's send cap, auto-protect
// parking and swapping). Set-based: per chunk of about CHUNK_MAILBOXES mailboxes (a client never split) one select,
// one port call per organization, one multi-row insert, one aggregate, one multi-row update, the campaign moves and
// one audit insert. Idempotent per day: mailboxes.last_tick_day marks a mailbox done (the chunk commits it with
// everything else), the chunk's rows are locked, and the health rows insert ON CONFLICT DO NOTHING.
import { sql } from 'drizzle-orm';
import { auditLog, organizations } from '../../schema';
import { registerTick } from '../clock/ticks';
import { rows, type Db } from '../db/types';
import { errorText } from '../log';
import { dayIn } from '../pool/day';
import type { HealthInput } from '../ports/warmup/port';
import type { Services } from '../services';
import { addDays, bounceRate, HEALTH_WINDOW_DAYS, type HealthState } from './mailbox_health';
import { decideDay, type TickMailbox } from './mailbox_transitions';
import { proposeReserves } from './protect';
import { dayInStatus, RAMP_DAYS } from './ramp';
import { RULE_DEFAULTS } from './rule';

export const MAILBOX_TICK = 'infra.mailbox_day';
export const CHUNK_MAILBOXES = 1000;

export type MailboxTickResult = { mailboxes: number; health_days: number; transitions: number; parked: number; swapped: number; proposed: number };
export type MailboxTickOptions = { orgIds?: string[]; chunk?: number };

type Row = {
  id: string;
  org_id: string;
  client_id: string;
  domain_id: string;
  address: string;
  domain: string;
  domain_listed: boolean;
  status: TickMailbox['status'];
  status_since: string;
  ramp_start_cap: number;
  daily_cap: number;
  park_reason: string | null;
  parked_at: string | Date | null;
  replaced_mailbox_id: string | null;
  connected: boolean;
  created_at: string | Date;
  attached: boolean;
  auto_protect: boolean;
  rule_cap: number;
};

const dayText = (v: string | Date) => (typeof v === 'string' ? v.slice(0, 10) : v.toISOString().slice(0, 10));

/** Runs the day for every organization (or `orgIds`) whose local day at `at` has mailboxes not yet ticked. */
export async function runMailboxTick(services: Services, at: Date, opts: MailboxTickOptions = {}): Promise<MailboxTickResult> {
  const total: MailboxTickResult = { mailboxes: 0, health_days: 0, transitions: 0, parked: 0, swapped: 0, proposed: 0 };
  const orgs = await rows<{ id: string; timezone: string }>(
    services.db,
    sql`select o.id, o.timezone from ${organizations} o
        where exists (select 1 from mailboxes m where m.org_id = o.id and m.status <> 'retired')
        ${opts.orgIds ? sql`and o.id = any(${sql.param(opts.orgIds)}::uuid[])` : sql``}`,
  );
  const zones = new Map(orgs.map((o) => [o.id, o.timezone]));
  const byDay = new Map<string, string[]>();
  for (const o of orgs) {
    const day = dayIn(o.timezone, at);
    byDay.set(day, [...(byDay.get(day) ?? []), o.id]);
  }
  for (const [day, orgIds] of byDay) {
    for (const clientIds of await dueChunks(services.db, day, orgIds, opts.chunk ?? CHUNK_MAILBOXES)) {
      const r = await services.db.transaction((tx) => tickChunk(services, tx, day, at, clientIds, zones));
      total.mailboxes += r.mailboxes;
      total.health_days += r.health_days;
      total.transitions += r.transitions;
      total.parked += r.parked;
      total.swapped += r.swapped;
      // A reserve to buy is proposed after the chunk committed, one client at a time: a plan that refuses the
      // proposal must not undo the day of a thousand mailboxes.
      for (const u of r.unreplaced) {
        try {
          total.proposed += await proposeReserves(services, at, u.orgId, u.clientId, u.parked);
        } catch (err) {
          services.log.warn('auto-protect could not propose a reserve', { clientId: u.clientId, error: errorText(err) });
        }
      }
    }
  }
  return total;
}

/** Clients with mailboxes due on `day`, grouped so a chunk holds about `size` mailboxes and never splits a client. */
async function dueChunks(db: Db, day: string, orgIds: string[], size: number): Promise<string[][]> {
  const due = await rows<{ client_id: string; n: number | string }>(
    db,
    sql`select client_id, count(*) as n from mailboxes
        where org_id = any(${sql.param(orgIds)}::uuid[]) and status <> 'retired' and (last_tick_day is null or last_tick_day < ${day}::date)
        group by client_id order by client_id`,
  );
  const chunks: string[][] = [];
  let cur: string[] = [];
  let n = 0;
  for (const d of due) {
    if (cur.length > 0 && n + Number(d.n) > size) {
      chunks.push(cur);
      cur = [];
      n = 0;
    }
    cur.push(d.client_id);
    n += Number(d.n);
  }
  if (cur.length) chunks.push(cur);
  return chunks;
}

async function tickChunk(services: Services, tx: Db, day: string, at: Date, clientIds: string[], zones: Map<string, string>) {
  const prev = addDays(day, -1);
  // Locked and re-checked: a second delivery of the same slot waits here, then finds these rows done.
  const found = await rows<Row>(
    tx,
    sql`select m.id, m.org_id, m.client_id, m.domain_id, m.address, d.name as domain, d.listed as domain_listed, m.status,
               m.status_since::text as status_since, m.ramp_start_cap, m.daily_cap, m.park_reason, m.parked_at, m.replaced_mailbox_id,
               m.connected, m.created_at, c.auto_protect, coalesce(r.daily_cap, ${RULE_DEFAULTS.daily_cap}) as rule_cap,
               exists (select 1 from mailbox_campaigns mc where mc.mailbox_id = m.id) as attached
        from mailboxes m
        join domains d on d.id = m.domain_id
        join clients c on c.id = m.client_id
        left join domain_rules r on r.client_id = m.client_id
        where m.client_id = any(${sql.param(clientIds)}::uuid[]) and m.status <> 'retired'
          and (m.last_tick_day is null or m.last_tick_day < ${day}::date)
        order by m.client_id, m.id
        for update of m`,
  );
  const none = { mailboxes: 0, health_days: 0, transitions: 0, parked: 0, swapped: 0, unreplaced: [] as { orgId: string; clientId: string; parked: { id: string; parkedAt: Date }[] }[] };
  if (found.length === 0) return none;

  // Close the day before: what each mailbox that existed then sent and bounced, as the health port reports it.
  const inputsByOrg = new Map<string, HealthInput[]>();
  for (const m of found) {
    const created = dayIn(zones.get(m.org_id) ?? 'UTC', new Date(m.created_at));
    if (created > prev) continue;
    const inStatus = Math.max(0, dayInStatus(dayText(m.status_since), prev));
    const sendingDay = m.status === 'ramping' ? inStatus : m.status === 'active' ? RAMP_DAYS + inStatus : 0;
    const input: HealthInput = {
      mailbox_id: m.id,
      address: m.address,
      domain: m.domain,
      age_days: dayInStatus(created, prev),
      sending_day: sendingDay,
      cap: m.status === 'ramping' || m.status === 'active' ? m.daily_cap : 0,
      parked: m.status === 'parked',
    };
    const list = inputsByOrg.get(m.org_id);
    if (list) list.push(input);
    else inputsByOrg.set(m.org_id, [input]);
  }
  const reported: { mailboxId: string; orgId: string; sent: number; bounced: number; connected: boolean; listed: boolean }[] = [];
  for (const [orgId, inputs] of inputsByOrg) {
    const days = await services.studio.warmup.health({ db: tx }, orgId, prev, inputs);
    for (const h of days) reported.push({ mailboxId: h.mailbox_id, orgId, sent: h.sent, bounced: h.bounced, connected: h.connected, listed: h.domain_listed });
  }
  if (reported.length > 0) {
    await tx.execute(sql`
      insert into mailbox_health_days (mailbox_id, day, org_id, sent, bounced, connected, domain_listed)
      select t.id, ${prev}::date, t.org, t.sent, t.bounced, t.connected, t.listed
      from unnest(${sql.param(reported.map((r) => r.mailboxId))}::uuid[], ${sql.param(reported.map((r) => r.orgId))}::uuid[],
                  ${sql.param(reported.map((r) => r.sent))}::int[], ${sql.param(reported.map((r) => r.bounced))}::int[],
                  ${sql.param(reported.map((r) => r.connected))}::boolean[], ${sql.param(reported.map((r) => r.listed))}::boolean[])
           as t(id, org, sent, bounced, connected, listed)
      on conflict do nothing`);
  }

  // A domain is listed when the port says so for any of its mailboxes that day (and no longer when it says not).
  const listedByDomain = new Map<string, boolean>();
  const domainOf = new Map(found.map((m) => [m.id, m.domain_id]));
  for (const r of reported) listedByDomain.set(domainOf.get(r.mailboxId)!, (listedByDomain.get(domainOf.get(r.mailboxId)!) ?? false) || r.listed);
  const domainListed = new Map(found.map((m) => [m.domain_id, m.domain_listed]));
  const domainChanges = [...listedByDomain].filter(([id, listed]) => domainListed.get(id) !== listed);
  for (const [id, listed] of listedByDomain) domainListed.set(id, listed);
  if (domainChanges.length > 0) {
    await tx.execute(sql`
      update domains d set listed = t.listed, updated_at = ${at.toISOString()}::timestamptz
      from unnest(${sql.param(domainChanges.map(([id]) => id))}::uuid[], ${sql.param(domainChanges.map(([, l]) => l))}::boolean[]) as t(id, listed)
      where d.id = t.id`);
  }

  // The 7-day window ending with the day just closed.
  const windows = await rows<{ mailbox_id: string; sent: number | string; bounced: number | string; connected: boolean | null }>(
    tx,
    sql`select mailbox_id, sum(sent) as sent, sum(bounced) as bounced, (array_agg(connected order by day desc))[1] as connected
        from mailbox_health_days
        where mailbox_id = any(${sql.param(found.map((m) => m.id))}::uuid[]) and day between ${addDays(day, -HEALTH_WINDOW_DAYS)}::date and ${prev}::date
        group by mailbox_id`,
  );
  const windowOf = new Map(windows.map((w) => [w.mailbox_id, w]));
  const health = new Map<string, HealthState>();
  const rate = new Map<string, number>();
  for (const m of found) {
    const w = windowOf.get(m.id);
    const r = w ? bounceRate(Number(w.sent), Number(w.bounced)) : 0;
    rate.set(m.id, r);
    health.set(m.id, { bounceRate7d: r, connected: w?.connected ?? m.connected, domainListed: domainListed.get(m.domain_id) ?? false });
  }

  const mailboxes: TickMailbox[] = found.map((m) => ({
    id: m.id,
    orgId: m.org_id,
    clientId: m.client_id,
    domainId: m.domain_id,
    address: m.address,
    status: m.status,
    statusSince: dayText(m.status_since),
    rampStartCap: m.ramp_start_cap,
    parkReason: m.park_reason,
    parkedAt: m.parked_at ? new Date(m.parked_at) : null,
    replacedMailboxId: m.replaced_mailbox_id,
    attached: m.attached,
    autoProtect: m.auto_protect,
    ruleCap: Number(m.rule_cap),
  }));
  const d = decideDay(day, at, mailboxes, health);

  const n = d.next;
  await tx.execute(sql`
    update mailboxes m set status = t.status, status_since = t.since, daily_cap = t.cap, park_reason = nullif(t.reason, ''),
           parked_at = nullif(t.parked_at, '')::timestamptz, replaced_mailbox_id = nullif(t.replaced, '')::uuid,
           bounce_rate_7d = t.rate, connected = t.connected, last_tick_day = ${day}::date, updated_at = ${at.toISOString()}::timestamptz
    from unnest(${sql.param(n.map((x) => x.id))}::uuid[], ${sql.param(n.map((x) => x.status))}::text[], ${sql.param(n.map((x) => x.statusSince))}::date[],
                ${sql.param(n.map((x) => x.dailyCap))}::int[], ${sql.param(n.map((x) => x.parkReason ?? ''))}::text[],
                ${sql.param(n.map((x) => x.parkedAt?.toISOString() ?? ''))}::text[], ${sql.param(n.map((x) => x.replacedMailboxId ?? ''))}::text[],
                ${sql.param(n.map((x) => rate.get(x.id) ?? 0))}::float8[], ${sql.param(n.map((x) => health.get(x.id)!.connected))}::boolean[])
         as t(id, status, since, cap, reason, parked_at, replaced, rate, connected)
    where m.id = t.id`);

  if (d.swaps.length > 0) {
    const parked = d.swaps.map((s) => s.parkedId);
    const reserves = d.swaps.map((s) => s.reserveId);
    // The campaigns move with the swap: the reserve sends for them, the parked mailbox no longer does.
    await tx.execute(sql`
      insert into mailbox_campaigns (mailbox_id, campaign_id, org_id, attached_at)
      select p.reserve, mc.campaign_id, mc.org_id, ${at.toISOString()}::timestamptz
      from mailbox_campaigns mc join unnest(${sql.param(parked)}::uuid[], ${sql.param(reserves)}::uuid[]) as p(parked, reserve) on mc.mailbox_id = p.parked
      on conflict do nothing`);
    await tx.execute(sql`delete from mailbox_campaigns where mailbox_id = any(${sql.param(parked)}::uuid[])`);
  }

  if (d.transitions.length > 0) {
    await tx.insert(auditLog).values(
      d.transitions.map((t) => ({ orgId: t.orgId, actor: 'system', action: t.action, target: `mailbox:${t.mailboxId}`, detail: { client_id: t.clientId, ...t.detail }, at })),
    );
  }

  const unreplaced = new Map<string, { orgId: string; clientId: string; parked: { id: string; parkedAt: Date }[] }>();
  for (const u of d.unreplaced) {
    const e = unreplaced.get(u.clientId) ?? { orgId: u.orgId, clientId: u.clientId, parked: [] };
    e.parked.push({ id: u.id, parkedAt: u.parkedAt });
    unreplaced.set(u.clientId, e);
  }
  return {
    mailboxes: found.length,
    health_days: reported.length,
    transitions: d.transitions.length,
    parked: d.transitions.filter((t) => t.action === 'mailbox.parked').length,
    swapped: d.swaps.length,
    unreplaced: [...unreplaced.values()],
  };
}

/** Hourly: each organization's day is run in the first hour after its local midnight (and caught up after an outage). */
export function registerMailboxTick() {
  registerTick(MAILBOX_TICK, { everySeconds: 3600 }, async (services, at) => {
    await runMailboxTick(services, at);
  });
}
