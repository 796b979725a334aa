import { rejectDraft } from '../sending';
import type { Services } from '../services';
import type { WebSession } from '../web/sessions';
import { deskActor, deskApprover, deskTenant } from './actor';
import { assertDraftUnchanged, readReplyDraft } from './pending';

/** "Reject": rejectDraft as the desk user with the person's reason; the reply is unanswered again. */
export async function rejectAtDesk({ services, session, replyId, reason, seen }: { services: Services; session: WebSession; replyId: string; reason: string; seen: string }) {
  const { draft } = await readReplyDraft(services.db, deskTenant(session), replyId);
  if (draft) await assertDraftUnchanged(draft.body, seen);
  return rejectDraft({ db: services.db, actor: deskActor(session), replyId, approver: deskApprover(session), reason, now: services.clock.now() });
}
