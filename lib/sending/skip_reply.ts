import { eq } from 'drizzle-orm';
import { drafts, replies } from '../../schema';
import type { Db } from '../db/types';
import { recordDecision } from '../decisions/record';
import { ApiError } from '../errors';
import { findReplyForUpdate } from '../leads/find_reply';
import { tenantOf } from '../tenancy';
import { auditReply } from './audit';
import { alreadySent } from './refusals';
import { keyDetail, type SendActor } from './types';

/**
 * POST /v1/replies/{id}/skip: decides not to answer an unanswered reply; the decision is recorded, nothing is
 * sent. A queued draft is the reviewer's to approve or reject (replies.approve), so skip does not withdraw it.
 * A skipped reply can still be sent later (it goes through governance like any send). `audit`: the agency audit
 * actor (./audit.ts).
 */
export async function skipReply({ db, actor, replyId, reason, now, audit }: { db: Db; actor: SendActor; replyId: string; reason: string; now: Date; audit?: string | null }) {
  return db.transaction(async (tx) => {
    const { reply, lead } = await findReplyForUpdate(tx, tenantOf(actor), replyId);
    if (reply.status === 'sent') throw alreadySent(reply.sentAt);
    if (reply.status === 'skipped') throw new ApiError('already_skipped', 'this reply was already skipped');
    const [draft] = await tx.select({ id: drafts.suggestionId }).from(drafts).where(eq(drafts.replyId, reply.id));
    if (draft) throw new ApiError('draft_pending', 'a draft for this reply is waiting for review: approve or reject it instead');
    await tx.update(replies).set({ status: 'skipped' }).where(eq(replies.id, reply.id));
    await recordDecision(tx, {
      orgId: actor.orgId,
      actor: actor.keyName,
      action: 'reply.skipped',
      replyId: reply.id,
      leadId: lead.id,
      detail: { reason, ...keyDetail(actor) },
      at: now,
    });
    await auditReply(tx, { orgId: actor.orgId, actor: audit, action: 'reply.skipped', replyId: reply.id, detail: { reason }, at: now });
    return { status: 'skipped' as const, reply_id: reply.id, reason };
  });
}
