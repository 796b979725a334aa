import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import { campaigns, clients } from '../../schema';
import type { Db } from '../db/types';
import { tenantFilter, type Tenant } from '../tenancy';

export type CampaignView = ReturnType<typeof campaignView>;

const rate = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 10_000) / 10_000 : 0);

/** Rates are fractions of `sent` (0.125 = 12.5 %), rounded to four decimals. */
export function campaignView(c: typeof campaigns.$inferSelect, client: { id: string; name: string } | null) {
  return {
    id: c.id,
    name: c.name,
    status: c.status,
    sent: c.sent,
    replied: c.replied,
    reply_rate: rate(c.replied, c.sent),
    open_rate: rate(c.opened, c.sent),
    client: client ? { id: client.id, name: client.name } : null,
    stats_last_synced_at: c.statsLastSyncedAt.toISOString(),
  };
}

export async function listCampaigns({ db, tenant, input }: { db: Db; tenant: Tenant; input: { status?: string; limit: number; offset: number } }) {
  const where: SQL[] = [tenantFilter(tenant, campaigns.orgId, campaigns.clientId)];
  if (input.status) where.push(eq(campaigns.status, input.status as 'active'));
  const filter = and(...where);
  // Two statements, issued together: the page and the total.
  const [page, [{ total }]] = await Promise.all([
    db
      .select({ c: campaigns, client: { id: clients.id, name: clients.name } })
      .from(campaigns)
      .leftJoin(clients, eq(clients.id, campaigns.clientId))
      .where(filter)
      .orderBy(desc(campaigns.createdAt), campaigns.id)
      .limit(input.limit)
      .offset(input.offset),
    db.select({ total: count() }).from(campaigns).where(filter),
  ]);
  return { campaigns: page.map((r) => campaignView(r.c, r.client?.id ? r.client : null)), total: Number(total) };
}
