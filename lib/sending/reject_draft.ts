import { eq } from 'drizzle-orm';
import { drafts, replies } from '../../schema';
import type { Db } from '../db/types';
import { recordDecision } from '../decisions/record';
import { findReplyForUpdate } from '../leads/find_reply';
import { tenantOf } from '../tenancy';
import { auditReply } from './audit';
import { alreadySent, noPendingDraft } from './refusals';
import { keyDetail, type SendActor } from './types';

/**
 * POST /v1/replies/{id}/reject: removes the queued draft; the reply is unanswered again and nothing is sent.
 * `audit`: the agency audit actor (./audit.ts).
 */
export async function rejectDraft({
  db,
  actor,
  replyId,
  approver,
  reason,
  now,
  audit,
}: {
  db: Db;
  actor: SendActor;
  replyId: string;
  approver: string;
  reason: string;
  now: Date;
  audit?: string | null;
}) {
  return db.transaction(async (tx) => {
    const { reply, lead } = await findReplyForUpdate(tx, tenantOf(actor), replyId);
    if (reply.status === 'sent') throw alreadySent(reply.sentAt);
    const [draft] = await tx.select().from(drafts).where(eq(drafts.replyId, reply.id));
    if (!draft) throw noPendingDraft();
    await tx.delete(drafts).where(eq(drafts.replyId, reply.id));
    await tx.update(replies).set({ status: 'unanswered' }).where(eq(replies.id, reply.id));
    await recordDecision(tx, {
      orgId: actor.orgId,
      actor: approver,
      action: 'reply.rejected',
      replyId: reply.id,
      leadId: lead.id,
      detail: { approver, reason, suggestion_id: draft.suggestionId, ...keyDetail(actor) },
      at: now,
    });
    await auditReply(tx, { orgId: actor.orgId, actor: audit, action: 'reply.rejected', replyId: reply.id, detail: { approver, reason, suggestion_id: draft.suggestionId }, at: now });
    return { status: 'rejected' as const, reply_id: reply.id, suggestion_id: draft.suggestionId, approver, reason };
  });
}
