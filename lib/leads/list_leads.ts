import { sql } from 'drizzle-orm';
import type { Db } from '../db/types';
import { iso, rows } from '../db/types';
import type { Classification } from '../classify/types';
import type { Tenant } from '../tenancy';

export type ListLeadsInput = {
  campaignId?: string;
  classification?: string;
  since?: Date;
  limit: number;
  offset: number;
};

export type LeadListItem = {
  email: string;
  name: string | null;
  campaign_id: string;
  campaign_name: string;
  client_name: string | null;
  classification: Classification | null;
  reply_count: number;
  last_reply_at: string | null;
};

type Row = Omit<LeadListItem, 'last_reply_at'> & { total: number; last_reply_at: Date | string | null };

/**
 * The page and the total in one statement (one round trip): a count over the filtered leads, left-joined to
 * the page, so an offset past the end still reports the total. The page is cut from the leads index first
 * (newest reply first, id breaks ties so pages are stable) and only its rows are joined to campaign and client.
 */
export async function listLeads({ db, tenant, input }: { db: Db; tenant: Tenant; input: ListLeadsInput }) {
  const where = [sql`l.org_id = ${tenant.orgId}`];
  if (tenant.clientId) where.push(sql`l.campaign_id in (select id from campaigns where org_id = ${tenant.orgId} and client_id = ${tenant.clientId})`);
  if (input.campaignId) where.push(sql`l.campaign_id = ${input.campaignId}`);
  if (input.classification) where.push(sql`l.classification = ${input.classification}`);
  if (input.since) where.push(sql`l.last_reply_at > ${input.since.toISOString()}`);
  const filter = sql.join(where, sql` and `);
  const result = await rows<Row>(
    db,
    sql`select t.total, p.* from (select count(*)::int as total from leads l where ${filter}) t
    left join lateral (
      select l.email, l.name, l.campaign_id, c.name as campaign_name, cl.name as client_name,
             l.classification, l.reply_count, l.last_reply_at
      from (select * from leads l where ${filter} order by l.last_reply_at desc, l.id desc limit ${input.limit} offset ${input.offset}) l
      join campaigns c on c.id = l.campaign_id
      left join clients cl on cl.id = c.client_id
      order by l.last_reply_at desc, l.id desc
    ) p on true`,
  );
  const total = Number(result[0]?.total ?? 0);
  const leads: LeadListItem[] = result
    .filter((r) => r.email != null)
    .map((r) => ({
      email: r.email,
      name: r.name,
      campaign_id: r.campaign_id,
      campaign_name: r.campaign_name,
      client_name: r.client_name,
      classification: r.classification,
      reply_count: Number(r.reply_count),
      last_reply_at: iso(r.last_reply_at),
    }));
  return { leads, total };
}
