import { editAndApproveAtDesk } from '../../../lib/desk/edit';
import { parseDraftBody, parseSeenDraft } from '../../../lib/desk/forms';
import { readForm, type PageArgs } from '../../../lib/web/face';
import { backToQueue } from './done';
import { deskRefusal, orRefusal } from './refusals';
import { renderReplyPage } from './reply_page';

/**
 * POST /desk/replies/{id}/edit: "Save edit and send". When the send is refused after the edit was saved, the
 * reply's page comes back with the refusal's status, showing the saved edit and why it was not sent.
 */
export function editReply(args: PageArgs) {
  return orRefusal(args, async () => {
    const form = (await readForm(args.c)) ?? {};
    const body = parseDraftBody(form.body);
    const seen = parseSeenDraft(form.draft_sha);
    const outcome = await editAndApproveAtDesk({ services: args.services, session: args.session, replyId: args.params.id, body, seen });
    if (outcome.status === 'sent') return backToQueue(args, outcome.edited ? 'edited' : 'approved', args.params.id);
    const refusal = deskRefusal(outcome.refusal);
    const res = await renderReplyPage(args, { status: refusal.status, notice: { title: 'Your edit was saved but not sent', message: `${refusal.title}: ${refusal.message}` } });
    if (refusal.retryAfterSec) res.headers.set('Retry-After', String(refusal.retryAfterSec));
    return res;
  });
}
