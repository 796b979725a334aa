import { approveDraft } from '../sending';
import type { Services } from '../services';
import type { WebSession } from '../web/sessions';
import { deskActor, deskApprover, deskTenant } from './actor';
import { assertDraftUnchanged, readReplyDraft } from './pending';

/**
 * "Approve and send": approveDraft as the desk user, the person's name as the approver. When no draft waits any
 * more (sent or rejected in another tab) the verb itself refuses, so its Decision Trail row (send.blocked) is
 * written exactly as for a second approval through the API.
 */
export async function approveAtDesk({ services, session, replyId, seen }: { services: Services; session: WebSession; replyId: string; seen: string }) {
  const { draft } = await readReplyDraft(services.db, deskTenant(session), replyId);
  if (draft) await assertDraftUnchanged(draft.body, seen);
  // The verb checks the text again under the reply's row lock: what goes out is what this person read.
  return approveDraft({ deps: services, actor: deskActor(session), replyId, approver: deskApprover(session), expectedBody: draft?.body });
}
