// get_mailbox_lifecycle (agency-tools-and-bridge.md §4): each mailbox's status, its day in that status, today's cap,
// its campaigns and its health over the 7 days the last tick saw; the same row shape answers attach_mailboxes and
// unpark_mailbox. Reads our tables only.
import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { domains, mailboxCampaigns, mailboxes, type MailboxStatus } from '../../schema';
import { findClient } from '../agency/clients/view';
import { rows, type Db } from '../db/types';
import { orgTimeZone } from '../plans/rows';
import { dayIn } from '../pool/day';
import { bounceRate, HEALTH_WINDOW_DAYS, isFailing, shownRate } from './mailbox_health';
import { dayInStatus } from './ramp';

export const MAILBOX_STATUSES = ['warming', 'ramping', 'active', 'reserve', 'parked', 'retired'] as const satisfies readonly MailboxStatus[];

export const MailboxLifecycleSchema = z.object({
  id: z.string(),
  address: z.string(),
  domain: z.string(),
  status: z.enum(MAILBOX_STATUSES),
  day: z.number().int().describe('day in the current status (1 = the day it began), in the organization timezone'),
  cap: z.number().int().describe('what it may send to prospects today (0 while warming, a reserve, parked or retired)'),
  campaign_ids: z.array(z.string()),
  health: z.object({
    bounce_rate_7d: z.number().describe('bounced / sent over the 7 days before the last daily tick (0..1)'),
    sent_7d: z.number().int(),
    bounced_7d: z.number().int(),
    connected: z.boolean(),
    domain_listed: z.boolean(),
    failing: z.boolean().describe('7-day bounce rate ≥ 3 %, the domain listed, or disconnected'),
  }),
  parked: z.object({ reason: z.string().nullable(), at: z.string().nullable() }).nullable(),
  replaced_mailbox_id: z.string().nullable(),
});
export type MailboxLifecycle = z.infer<typeof MailboxLifecycleSchema>;

export const CountsSchema = z.object(Object.fromEntries(MAILBOX_STATUSES.map((s) => [s, z.number().int()])) as Record<MailboxStatus, z.ZodNumber>);
export type StatusCounts = Record<MailboxStatus, number>;

export const LifecycleSchema = z.object({
  mailboxes: z.array(MailboxLifecycleSchema),
  counts: CountsSchema,
  auto_protect: z.boolean(),
  next_offset: z.number().int().nullable(),
});

export type LifecycleInput = { client_id: string; status?: MailboxStatus; limit?: number; offset?: number };

/** The organization's day today (its timezone): the day mailbox days and caps count in. */
export async function orgToday(db: Db, orgId: string, now: Date) {
  return dayIn(await orgTimeZone(db, orgId), now);
}

/** Lifecycle rows of the client's mailboxes matching `where`, in a stable order (domain, address). */
export async function mailboxViews(db: Db, orgId: string, clientId: string, today: string, opts: { where?: SQL; limit?: number; offset?: number } = {}): Promise<MailboxLifecycle[]> {
  let q = db
    .select({ m: mailboxes, domain: domains.name, listed: domains.listed })
    .from(mailboxes)
    .innerJoin(domains, eq(domains.id, mailboxes.domainId))
    .where(and(eq(mailboxes.orgId, orgId), eq(mailboxes.clientId, clientId), opts.where))
    .orderBy(asc(domains.name), asc(mailboxes.address))
    .$dynamic();
  if (opts.limit !== undefined) q = q.limit(opts.limit).offset(opts.offset ?? 0);
  const found = await q;
  if (found.length === 0) return [];
  const ids = found.map((f) => f.m.id);
  const links = await db.select({ mailboxId: mailboxCampaigns.mailboxId, campaignId: mailboxCampaigns.campaignId }).from(mailboxCampaigns).where(inArray(mailboxCampaigns.mailboxId, ids));
  const sums = await windowSums(db, ids);
  return found.map(({ m, domain, listed }) => {
    const s = sums.get(m.id) ?? { sent: 0, bounced: 0 };
    const rate = bounceRate(s.sent, s.bounced);
    return {
      id: m.id,
      address: m.address,
      domain,
      status: m.status,
      day: Math.max(1, dayInStatus(m.statusSince, today)),
      cap: m.dailyCap,
      campaign_ids: links.filter((l) => l.mailboxId === m.id).map((l) => l.campaignId).sort(),
      health: { bounce_rate_7d: shownRate(rate), sent_7d: s.sent, bounced_7d: s.bounced, connected: m.connected, domain_listed: listed, failing: isFailing({ bounceRate7d: rate, connected: m.connected, domainListed: listed }) },
      parked: m.status === 'parked' ? { reason: m.parkReason, at: m.parkedAt?.toISOString() ?? null } : null,
      replaced_mailbox_id: m.replacedMailboxId,
    };
  });
}

/** Sent and bounced over the window the last tick judged each mailbox by (the 7 days before its last_tick_day). */
export async function windowSums(db: Db, ids: string[]): Promise<Map<string, { sent: number; bounced: number }>> {
  if (ids.length === 0) return new Map();
  const found = await rows<{ mailbox_id: string; sent: number | string; bounced: number | string }>(
    db,
    sql`select h.mailbox_id, sum(h.sent) as sent, sum(h.bounced) as bounced
        from mailbox_health_days h join mailboxes m on m.id = h.mailbox_id
        where h.mailbox_id = any(${sql.param(ids)}::uuid[]) and m.last_tick_day is not null
          and h.day >= m.last_tick_day - ${HEALTH_WINDOW_DAYS}::int and h.day < m.last_tick_day
        group by h.mailbox_id`,
  );
  return new Map(found.map((r) => [r.mailbox_id, { sent: Number(r.sent), bounced: Number(r.bounced) }]));
}

export async function statusCounts(db: Db, orgId: string, clientId: string): Promise<StatusCounts> {
  const found = await db
    .select({ status: mailboxes.status, n: sql<number>`count(*)::int` })
    .from(mailboxes)
    .where(and(eq(mailboxes.orgId, orgId), eq(mailboxes.clientId, clientId)))
    .groupBy(mailboxes.status);
  const counts = Object.fromEntries(MAILBOX_STATUSES.map((s) => [s, 0])) as StatusCounts;
  for (const f of found) counts[f.status] = Number(f.n);
  return counts;
}

export async function getMailboxLifecycle(db: Db, orgId: string, input: LifecycleInput, now: Date) {
  const client = await findClient(db, orgId, input.client_id);
  const limit = input.limit ?? 50;
  const offset = input.offset ?? 0;
  const today = await orgToday(db, orgId, now);
  // One more than the page tells whether there is a next one.
  const page = await mailboxViews(db, orgId, client.id, today, { where: input.status ? eq(mailboxes.status, input.status) : undefined, limit: limit + 1, offset });
  return {
    mailboxes: page.slice(0, limit),
    counts: await statusCounts(db, orgId, client.id),
    auto_protect: client.autoProtect,
    next_offset: page.length > limit ? offset + limit : null,
  };
}
