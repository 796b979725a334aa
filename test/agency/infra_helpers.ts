// Sending-infrastructure rows for the mailbox and snapshot tests, inserted directly (the create_mailboxes step is
// tested elsewhere), and the daily tick run on explicit days: days are counted back from the test clock's today so
// the tools (which read "today" from the clock) and the tick agree.
import { randomInt } from 'node:crypto';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { runMailboxTick } from '../../lib/infra/mailbox_tick';
import { addDays } from '../../lib/infra/mailbox_health';
import { dayIn } from '../../lib/pool/day';
import { failsInWeek2 } from '../../lib/ports/warmup/sim';
import { auditLog, domainRules, domains, mailboxCampaigns, mailboxes, mailboxHealthDays, simHealthOverrides, type MailboxStatus } from '../../schema';
import type { TestEnv } from '../helpers/harness';

export const todayOf = (env: TestEnv) => dayIn('UTC', env.clock.now());
export const daysAgo = (env: TestEnv, n: number) => addDays(todayOf(env), -n);

export async function addDomain(env: TestEnv, orgId: string, clientId: string, name = `d${randomInt(1e9)}-mail.com`, status: 'bought' | 'dns_ready' = 'dns_ready') {
  const [d] = await env.services.db
    .insert(domains)
    .values({ orgId, clientId, name, status, priceCents: 999, orderRef: `test-${randomInt(1e12)}` })
    .returning();
  return d;
}

/**
 * Mailboxes whose simulated health is clean: addresses the warm-up simulation would make fail in their second week
 * of sending (about 5 %, by hash) are skipped, so only the test's own overrides or `fail-` domains make one fail.
 */
export async function addMailboxes(
  env: TestEnv,
  d: { id: string; orgId: string; clientId: string; name: string },
  n: number,
  opts: { status?: MailboxStatus; since?: string; dailyCap?: number; campaignId?: string; createdDay?: string } = {},
) {
  const out: (typeof mailboxes.$inferSelect)[] = [];
  for (let i = 0; out.length < n; i++) {
    const address = `sender${randomInt(1e9)}@${d.name}`;
    if (await failsInWeek2(env.config.SIM_SEED, address)) continue;
    const since = opts.since ?? todayOf(env);
    const [m] = await env.services.db
      .insert(mailboxes)
      .values({
        orgId: d.orgId,
        clientId: d.clientId,
        domainId: d.id,
        address,
        displayName: 'Anna Berg',
        workspaceId: 'sim-ws-test-1',
        providerId: `sim-mbx-${i}`,
        createdByStep: 'test',
        status: opts.status ?? 'warming',
        statusSince: since,
        dailyCap: opts.dailyCap ?? 0,
        createdAt: new Date(`${opts.createdDay ?? addDays(since, -30)}T00:00:00Z`),
      })
      .returning();
    if (opts.campaignId) await env.services.db.insert(mailboxCampaigns).values({ mailboxId: m.id, campaignId: opts.campaignId, orgId: d.orgId });
    out.push(m);
  }
  return out;
}

/** The tick for each day from `from` to `to` (inclusive), for this organization only (other files share the database). */
export async function tickDays(env: TestEnv, orgId: string, from: string, to: string) {
  const results = [];
  for (let day = from; day <= to; day = addDays(day, 1)) results.push(await runMailboxTick(env.services, new Date(`${day}T00:30:00Z`), { orgIds: [orgId] }));
  return results;
}

export const tickDay = (env: TestEnv, orgId: string, day: string) => runMailboxTick(env.services, new Date(`${day}T00:30:00Z`), { orgIds: [orgId] });

export async function mailboxRow(env: TestEnv, id: string) {
  const [m] = await env.services.db.select().from(mailboxes).where(eq(mailboxes.id, id));
  return m;
}

export const campaignsOf = async (env: TestEnv, id: string) =>
  (await env.services.db.select().from(mailboxCampaigns).where(eq(mailboxCampaigns.mailboxId, id))).map((l) => l.campaignId);

export const healthRows = (env: TestEnv, ids: string[]) => env.services.db.select().from(mailboxHealthDays).where(inArray(mailboxHealthDays.mailboxId, ids)).orderBy(asc(mailboxHealthDays.day));

export const mailboxAudit = (env: TestEnv, orgId: string) =>
  env.services.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.orgId, orgId)))
    .orderBy(asc(auditLog.at));

export async function overrideHealth(env: TestEnv, orgId: string, target: string, o: { bounceRate?: number | null; listed?: boolean | null; disconnected?: boolean | null }) {
  await env.services.db
    .insert(simHealthOverrides)
    .values({ orgId, target, bounceRate: o.bounceRate ?? null, listed: o.listed ?? null, disconnected: o.disconnected ?? null })
    .onConflictDoUpdate({ target: [simHealthOverrides.orgId, simHealthOverrides.target], set: { bounceRate: o.bounceRate ?? null, listed: o.listed ?? null, disconnected: o.disconnected ?? null } });
}

export const clearOverride = (env: TestEnv, orgId: string, target: string) =>
  env.services.db.delete(simHealthOverrides).where(and(eq(simHealthOverrides.orgId, orgId), eq(simHealthOverrides.target, target)));

export async function setRule(env: TestEnv, orgId: string, clientId: string, rule: { dailyCap?: number; mailboxesPerDomain?: number }) {
  await env.services.db
    .insert(domainRules)
    .values({ orgId, clientId, ...rule })
    .onConflictDoUpdate({ target: domainRules.clientId, set: rule });
}
