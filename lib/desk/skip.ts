import { rejectDraft, skipReply } from '../sending';
import type { Services } from '../services';
import type { WebSession } from '../web/sessions';
import { deskActor, deskApprover, deskTenant } from './actor';
import { readReplyDraft } from './pending';

export const SKIPPED_AT_DESK = 'skipped at the review desk';

/**
 * "Skip" (do not answer this reply) on a reply whose draft waits for review. The core skipReply refuses while a
 * draft is pending (the reviewer decides), and the reviewer is deciding: so the draft is rejected first, then the
 * reply skipped, each by its own verb in its own transaction. Two transactions are safe: after the first the reply
 * is simply unanswered with its draft rejected (Decision Trail: reply.rejected), exactly what a rejection leaves;
 * if the skip then fails, nothing is lost and skipping again from the reply's page (or the API) finishes it: a reply
 * with no draft is only skipped.
 */
export async function skipAtDesk({ services, session, replyId, reason }: { services: Services; session: WebSession; replyId: string; reason: string }) {
  const actor = deskActor(session);
  const now = services.clock.now();
  const { draft } = await readReplyDraft(services.db, deskTenant(session), replyId);
  if (draft) await rejectDraft({ db: services.db, actor, replyId, approver: deskApprover(session), reason: reason ? `${SKIPPED_AT_DESK}: ${reason}` : SKIPPED_AT_DESK, now });
  return skipReply({ db: services.db, actor, replyId, reason: reason || SKIPPED_AT_DESK, now: services.clock.now() });
}
