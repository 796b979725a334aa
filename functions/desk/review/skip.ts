import { parseReason } from '../../../lib/desk/forms';
import { skipAtDesk } from '../../../lib/desk/skip';
import { readForm, type PageArgs } from '../../../lib/web/face';
import { backToQueue } from './done';
import { orRefusal } from './refusals';

/** POST /desk/replies/{id}/skip: do not answer this reply (its draft, if any, is rejected first). */
export function skipDeskReply(args: PageArgs) {
  return orRefusal(args, async () => {
    const form = (await readForm(args.c)) ?? {};
    const reason = parseReason(form.reason, false);
    await skipAtDesk({ services: args.services, session: args.session, replyId: args.params.id, reason });
    return backToQueue(args, 'skipped', args.params.id);
  });
}
