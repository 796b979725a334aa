import { z } from 'zod';
import { and, asc, eq } from 'drizzle-orm';
import { followups, leads, replies } from '../../schema';
import type { Db } from '../db/types';
import { recordDecision } from '../decisions/record';
import { ApiError, notFound } from '../errors';
import type { Logger } from '../log';
import type { Queue } from '../queue/port';
import { scheduleAfterCommit, scheduleFollowup } from './schedule';

export type Followup = typeof followups.$inferSelect;
export type FollowupKind = Followup['kind'];

/** The Decision Trail actor for what the organization owner does through the admin API. */
export const OWNER_ACTOR = 'owner';

export const FOLLOWUP_STATUSES = ['planned', 'review', 'cancelled', 'sent'] as const;

/** The shape followupView gives: one schema for every route and tool that shows a follow-up. */
export const FollowupViewSchema = z.object({
  id: z.string(),
  lead_id: z.string(),
  reply_id: z.string(),
  kind: z.enum(['followup', 'checkin']),
  due_at: z.string(),
  status: z.enum(FOLLOWUP_STATUSES),
  reason: z.string().nullable(),
  body: z.string(),
  attempts: z.number().int(),
  next_attempt_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const followupView = (f: Followup): z.infer<typeof FollowupViewSchema> => ({
  id: f.id,
  lead_id: f.leadId,
  reply_id: f.replyId,
  kind: f.kind,
  due_at: f.dueAt.toISOString(),
  status: f.status,
  reason: f.reason,
  body: f.body,
  attempts: f.attempts,
  next_attempt_at: f.nextAttemptAt?.toISOString() ?? null,
  created_at: f.createdAt.toISOString(),
  updated_at: f.updatedAt.toISOString(),
});

type Deps = { db: Db; queue: Queue; log: Logger; now: Date };

/**
 * POST /admin/v1/orgs/{org_id}/followups: plans a follow-up or check-in on a reply's thread, due at `due_at`.
 * The owner plans it, so it is sent at due time without a key's autonomy (see send_due.ts).
 */
export async function createFollowup(deps: Deps & { orgId: string; input: { reply_id: string; kind: FollowupKind; due_at: string; body: string } }) {
  const { db, orgId, input, now } = deps;
  const dueAt = new Date(input.due_at);
  const f = await db.transaction(async (tx) => {
    // KEY SHARE on reply, then lead (findReplyForUpdate's order): the insert's FK checks lock lead first, deadlocking with sends.
    const [reply] = await tx
      .select({ id: replies.id, leadId: replies.leadId })
      .from(replies)
      .innerJoin(leads, eq(leads.id, replies.leadId))
      .where(and(eq(replies.id, input.reply_id), eq(replies.orgId, orgId)))
      .for('key share', { of: [replies, leads] });
    if (!reply) throw notFound('reply');
    const [row] = await tx
      .insert(followups)
      .values({ orgId, leadId: reply.leadId, replyId: reply.id, kind: input.kind, dueAt, body: input.body, status: 'planned', nextAttemptAt: dueAt, createdAt: now, updatedAt: now })
      .returning();
    await recordDecision(tx, {
      orgId,
      actor: OWNER_ACTOR,
      action: 'followup.planned',
      replyId: reply.id,
      leadId: reply.leadId,
      detail: { followup_id: row.id, kind: row.kind, due_at: dueAt.toISOString() },
      at: now,
    });
    await scheduleFollowup(deps.queue, row.id, dueAt, { tx });
    return row;
  });
  await scheduleAfterCommit(deps.queue, deps.log, f);
  return followupView(f);
}

export async function listFollowups({ db, orgId, leadId }: { db: Db; orgId: string; leadId?: string }) {
  const where = leadId ? and(eq(followups.orgId, orgId), eq(followups.leadId, leadId)) : eq(followups.orgId, orgId);
  const found = await db.select().from(followups).where(where).orderBy(asc(followups.dueAt), asc(followups.id)).limit(500);
  return found.map(followupView);
}

/**
 * PATCH /admin/v1/orgs/{org_id}/followups/{id}: the person a follow-up in review waits for. `planned` releases it
 * (sent at its due time, or now when that has passed), `cancelled` drops it. A sent or cancelled one is final.
 */
export async function resolveFollowup(deps: Deps & { orgId: string; followupId: string; status: 'planned' | 'cancelled' }) {
  const { db, orgId, followupId, status, now } = deps;
  const f = await db.transaction(async (tx) => {
    const [current] = await tx.select().from(followups).where(and(eq(followups.id, followupId), eq(followups.orgId, orgId))).for('update');
    if (!current) throw notFound('follow-up');
    if (current.status === 'sent' || current.status === 'cancelled') {
      throw new ApiError('conflict', `this follow-up is already ${current.status}`);
    }
    if (current.status === status) return current;
    const nextAttemptAt = status === 'planned' ? new Date(Math.max(current.dueAt.getTime(), now.getTime())) : null;
    const reason = status === 'planned' ? 'released from review by the owner' : 'cancelled by the owner';
    const [row] = await tx.update(followups).set({ status, reason, nextAttemptAt, updatedAt: now }).where(eq(followups.id, current.id)).returning();
    await recordDecision(tx, {
      orgId,
      actor: OWNER_ACTOR,
      action: status === 'planned' ? 'followup.released' : 'followup.cancelled',
      replyId: row.replyId,
      leadId: row.leadId,
      detail: { followup_id: row.id, kind: row.kind, previous_status: current.status },
      at: now,
    });
    if (nextAttemptAt) await scheduleFollowup(deps.queue, row.id, nextAttemptAt, { tx });
    return row;
  });
  await scheduleAfterCommit(deps.queue, deps.log, f);
  return followupView(f);
}
