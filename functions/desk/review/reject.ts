import { parseReason, parseSeenDraft } from '../../../lib/desk/forms';
import { rejectAtDesk } from '../../../lib/desk/reject';
import { readForm, type PageArgs } from '../../../lib/web/face';
import { backToQueue } from './done';
import { orRefusal } from './refusals';

/** POST /desk/replies/{id}/reject: the draft removed with the person's reason (required). */
export function rejectReply(args: PageArgs) {
  return orRefusal(args, async () => {
    const form = (await readForm(args.c)) ?? {};
    const reason = parseReason(form.reason, true);
    const seen = parseSeenDraft(form.draft_sha);
    await rejectAtDesk({ services: args.services, session: args.session, replyId: args.params.id, reason, seen });
    return backToQueue(args, 'rejected', args.params.id);
  });
}
