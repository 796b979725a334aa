import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { CLASSIFICATIONS } from '../../classify/types';
import { rows, type Db } from '../../db/types';
import type { Period } from './period';

// The counts both insight tools read, straight from the rows: replies received, messages sent, for the whole
// organization or one client. A reply belongs to the client its campaign is linked to now (moving a campaign
// moves its history with it, as it moves its leads in the client portal).

export type Scope = { orgId: string; clientId: string | null };

export const ByClassificationSchema = z.object({
  hot: z.number().int(),
  warm: z.number().int(),
  cold: z.number().int(),
  not_interested: z.number().int(),
  ooo: z.number().int(),
  unclassified: z.number().int(),
});

export const ReceivedSchema = z.object({
  total: z.number().int().describe('replies received in the period'),
  leads: z.number().int().describe('distinct prospects (leads) who replied in the period'),
  by_classification: ByClassificationSchema,
  positive: z.number().int().describe('hot + warm'),
  positive_rate: z.number().describe('positive / total as a fraction (0 when there is no reply), four decimals'),
});

export const SendsSchema = z.object({
  total: z.number().int().describe('messages the service sent in the period (every provider), answers and follow-ups'),
  answers: z.number().int().describe('answers to replies (sent directly or approved from review)'),
  followups: z.number().int().describe('planned follow-ups and check-ins sent'),
});

export const rate = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 10_000) / 10_000 : 0);

const clientOfCampaign = (scope: Scope, campaignCol: SQL) =>
  scope.clientId ? sql` and ${campaignCol} in (select id from campaigns where org_id = ${scope.orgId}::uuid and client_id = ${scope.clientId}::uuid)` : sql``;

const range = (col: SQL, p: Period) => sql`${col} >= ${p.from.toISOString()}::timestamptz and ${col} < ${p.to.toISOString()}::timestamptz`;

export async function receivedIn(db: Db, scope: Scope, p: Period): Promise<z.infer<typeof ReceivedSchema>> {
  const perClass = CLASSIFICATIONS.map((c) => sql`count(*) filter (where r.classification = ${c})::int as ${sql.identifier(c)}`);
  const [r] = await rows<Record<string, number>>(
    db,
    sql`select count(*)::int as total, count(distinct r.lead_id)::int as leads, ${sql.join(perClass, sql`, `)}
        from replies r
        where r.org_id = ${scope.orgId}::uuid and ${range(sql`r.received_at`, p)}${clientOfCampaign(scope, sql`r.campaign_id`)}`,
  );
  const by = Object.fromEntries(CLASSIFICATIONS.map((c) => [c, Number(r[c] ?? 0)])) as Record<(typeof CLASSIFICATIONS)[number], number>;
  const total = Number(r.total ?? 0);
  const classified = CLASSIFICATIONS.reduce((sum, c) => sum + by[c], 0);
  const positive = by.hot + by.warm;
  return { total, leads: Number(r.leads ?? 0), by_classification: { ...by, unclassified: total - classified }, positive, positive_rate: rate(positive, total) };
}

/**
 * Messages sent, from the Decision Trail: every successful send writes one `reply.sent` row in its transaction
 * (answers, approvals and follow-ups alike; a refused or failed send writes none), and a follow-up adds
 * `followup.sent`. The trail is indexed by organization and time, and is never pruned.
 */
export async function sendsIn(db: Db, scope: Scope, p: Period): Promise<z.infer<typeof SendsSchema>> {
  const [r] = await rows<{ total: number; followups: number }>(
    db,
    sql`select count(*) filter (where d.action = 'reply.sent')::int as total, count(*) filter (where d.action = 'followup.sent')::int as followups
        from decisions d
        where d.org_id = ${scope.orgId}::uuid and d.action in ('reply.sent', 'followup.sent') and ${range(sql`d.at`, p)}
          ${scope.clientId ? sql`and d.lead_id in (select l.id from leads l join campaigns c on c.id = l.campaign_id where l.org_id = ${scope.orgId}::uuid and c.client_id = ${scope.clientId}::uuid)` : sql``}`,
  );
  const total = Number(r?.total ?? 0);
  const followups = Number(r?.followups ?? 0);
  return { total, answers: total - followups, followups };
}
