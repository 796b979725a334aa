import { sql } from 'drizzle-orm';
import { notFound } from '../errors';
import type { Db } from '../db/types';
import { iso, rows } from '../db/types';
import type { Classification } from '../classify/types';
import type { Tenant } from '../tenancy';

export type ReplyView = {
  id: string;
  from_email: string;
  from_name: string | null;
  campaign_name: string;
  body: string;
  classification: Classification | null;
  received_at: string;
};

/** The Reply of a stored row in lists (the queue, the reply list): the prospect's own text, quoted thread stripped. */
export function listedReplyView(reply: { id: string; fromEmail: string; fromName: string | null; bodyStripped: string; classification: string | null; receivedAt: Date }, campaignName: string): ReplyView {
  return {
    id: reply.id,
    from_email: reply.fromEmail,
    from_name: reply.fromName,
    campaign_name: campaignName,
    body: reply.bodyStripped,
    classification: reply.classification as Classification | null,
    received_at: reply.receivedAt.toISOString(),
  };
}

type Row = {
  id: string;
  from_email: string;
  from_name: string | null;
  campaign_name: string;
  body: string;
  body_html: string | null;
  classification: Classification | null;
  received_at: Date | string;
  thread: { role: string; content: string }[] | string;
};

/** The reply and its lead's whole conversation in one statement (one round trip per read). */
export async function getReply({ db, tenant, replyId }: { db: Db; tenant: Tenant; replyId: string }) {
  const clientFilter = tenant.clientId ? sql` and c.client_id = ${tenant.clientId}` : sql``;
  const [row] = await rows<Row>(
    db,
    sql`select r.id, r.from_email, r.from_name, c.name as campaign_name, r.body, r.body_html, r.classification, r.received_at,
      (select coalesce(json_agg(json_build_object('role', m.role, 'content', m.content) order by m.at, m.id), '[]'::json)
         from thread_messages m where m.lead_id = r.lead_id and m.org_id = r.org_id) as thread
    from replies r join campaigns c on c.id = r.campaign_id
    where r.id = ${replyId} and r.org_id = ${tenant.orgId}${clientFilter}`,
  );
  if (!row) throw notFound('reply');
  const thread = typeof row.thread === 'string' ? JSON.parse(row.thread) : row.thread;
  const reply: ReplyView = {
    id: row.id,
    from_email: row.from_email,
    from_name: row.from_name,
    campaign_name: row.campaign_name,
    body: row.body,
    classification: row.classification,
    received_at: iso(row.received_at)!,
  };
  return { reply: { ...reply, body_html: row.body_html }, thread: thread as { role: string; content: string }[] };
}

/** GET /v1/replies/{id} as both faces answer it (the route and the get_reply tool): the reply, its thread and its length. */
export async function getReplyAnswer(a: { db: Db; tenant: Tenant; replyId: string }) {
  const { reply, thread } = await getReply(a);
  return { reply, thread, thread_length: thread.length };
}
