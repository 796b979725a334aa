import { approveAtDesk } from '../../../lib/desk/approve';
import { parseSeenDraft } from '../../../lib/desk/forms';
import { readForm, type PageArgs } from '../../../lib/web/face';
import { backToQueue } from './done';
import { orRefusal } from './refusals';

/** POST /desk/replies/{id}/approve: "Approve and send", the signed-in person as the approver. */
export function approveReply(args: PageArgs) {
  return orRefusal(args, async () => {
    const form = (await readForm(args.c)) ?? {};
    const seen = parseSeenDraft(form.draft_sha);
    await approveAtDesk({ services: args.services, session: args.session, replyId: args.params.id, seen });
    return backToQueue(args, 'approved', args.params.id);
  });
}
