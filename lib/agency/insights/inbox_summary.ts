import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { iso, rows, type Db } from '../../db/types';
import { findClient } from '../clients/view';
import type { AgencyCall } from '../operation';
import { ReceivedSchema, receivedIn, SendsSchema, sendsIn, type Scope } from './counts';
import { periodOf, PeriodSchema, periodView } from './period';

export const INBOX_DEFAULT_DAYS = 7;

export const InboxSummarySchema = z.object({
  client_id: z.string().nullable(),
  period: PeriodSchema,
  received: ReceivedSchema,
  sends: SendsSchema,
  waiting: z.object({
    unanswered: z.number().int().describe('replies nobody has answered, skipped or drafted (list_pending_replies status=unanswered)'),
    in_review: z.number().int().describe('replies with a draft waiting for a person to approve it'),
    hot_unanswered: z.number().int().describe('of unanswered, the hot ones'),
    oldest_unanswered_received_at: z.string().nullable(),
  }),
  followups: z.object({
    planned: z.number().int(),
    in_review: z.number().int().describe('follow-ups held for a person (a blocked or uncertain send)'),
    next_due_at: z.string().nullable(),
  }),
});
export type InboxSummary = z.infer<typeof InboxSummarySchema>;

/** What waits now, whenever it arrived: a backlog does not stop mattering when it leaves the period. */
async function waitingNow(db: Db, scope: Scope) {
  const client = scope.clientId ? sql` and r.campaign_id in (select id from campaigns where org_id = ${scope.orgId}::uuid and client_id = ${scope.clientId}::uuid)` : sql``;
  const [r] = await rows<{ unanswered: number; in_review: number; hot_unanswered: number; oldest: Date | string | null }>(
    db,
    sql`select count(*) filter (where r.status = 'unanswered')::int as unanswered,
               count(*) filter (where r.status = 'queued')::int as in_review,
               count(*) filter (where r.status = 'unanswered' and r.classification = 'hot')::int as hot_unanswered,
               min(r.received_at) filter (where r.status = 'unanswered') as oldest
        from replies r
        where r.org_id = ${scope.orgId}::uuid and r.status in ('unanswered', 'queued')${client}`,
  );
  return {
    unanswered: Number(r?.unanswered ?? 0),
    in_review: Number(r?.in_review ?? 0),
    hot_unanswered: Number(r?.hot_unanswered ?? 0),
    oldest_unanswered_received_at: iso(r?.oldest),
  };
}

async function followupsNow(db: Db, scope: Scope) {
  const client = scope.clientId
    ? sql` and f.lead_id in (select l.id from leads l join campaigns c on c.id = l.campaign_id where l.org_id = ${scope.orgId}::uuid and c.client_id = ${scope.clientId}::uuid)`
    : sql``;
  const [r] = await rows<{ planned: number; in_review: number; next_due: Date | string | null }>(
    db,
    sql`select count(*) filter (where f.status = 'planned')::int as planned,
               count(*) filter (where f.status = 'review')::int as in_review,
               min(f.due_at) filter (where f.status = 'planned') as next_due
        from followups f
        where f.org_id = ${scope.orgId}::uuid and f.status in ('planned', 'review')${client}`,
  );
  return { planned: Number(r?.planned ?? 0), in_review: Number(r?.in_review ?? 0), next_due_at: iso(r?.next_due) };
}

/**
 * get_inbox_summary: the period's flow (replies received by classification, messages sent) and what waits now
 * (unanswered, in review, hot unanswered, the oldest unanswered; planned follow-ups), for the organization or one
 * client. The period defaults to the last 7 days.
 */
export async function inboxSummary(call: AgencyCall, input: { client_id?: string; from?: string; to?: string }): Promise<InboxSummary> {
  const { db } = call.services;
  const period = periodOf(input, call.now, INBOX_DEFAULT_DAYS);
  if (input.client_id) await findClient(db, call.auth.orgId, input.client_id);
  const scope: Scope = { orgId: call.auth.orgId, clientId: input.client_id ?? null };
  const [received, sends, waiting, followups] = await Promise.all([receivedIn(db, scope, period), sendsIn(db, scope, period), waitingNow(db, scope), followupsNow(db, scope)]);
  return { client_id: scope.clientId, period: periodView(period), received, sends, waiting, followups };
}
