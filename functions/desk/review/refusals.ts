import { ApiError } from '../../../lib/errors';
import { SENDS_PER_MINUTE } from '../../../lib/sending';
import type { PageArgs } from '../../../lib/web/face';

export type Refusal = { status: number; title: string; message: string; retryAfterSec?: number };

const minutes = (sec: number) => Math.max(1, Math.ceil(sec / 60));

/**
 * The governed-send refusals as a reviewer reads them: what happened, that nothing (more) was sent, what to do.
 * The verbs' messages are written for API callers; the times they state come with the error as facts.
 */
export function deskRefusal(err: ApiError): Refusal {
  switch (err.code) {
    case 'already_sent': {
      const at = err.extra.facts?.sentAt?.toISOString().slice(0, 16).replace('T', ' ');
      return { status: 409, title: 'Already sent', message: `This reply was already sent${at ? ` at ${at} UTC` : ''}, so nothing was sent again.` };
    }
    case 'no_pending_draft':
      return { status: 409, title: 'No draft waiting', message: 'No draft waits for this reply any more: someone rejected or skipped it, perhaps in another tab. Nothing was sent.' };
    case 'already_skipped':
      return { status: 409, title: 'Already skipped', message: 'This reply was already skipped; nothing was changed.' };
    case 'send_rate_limit_exceeded':
      return { status: 429, title: 'Too many sends', message: `You may send at most ${SENDS_PER_MINUTE} replies a minute from the desk. Nothing was sent; try again in a minute.`, retryAfterSec: 60 };
    case 'lead_recently_contacted': {
      const sec = err.extra.facts?.nextContactInSec ?? err.extra.retryAfter ?? 900;
      return {
        status: 429,
        title: 'Contacted recently',
        message: `This lead was contacted less than 15 minutes ago. Nothing was sent; try again in ${minutes(sec)} minute${minutes(sec) === 1 ? '' : 's'}.`,
        retryAfterSec: sec,
      };
    }
    case 'recipient_opted_out':
      return { status: 409, title: 'Opted out', message: `Nothing can be sent to this recipient: ${err.message}. Reject or skip this reply instead.` };
    case 'provider_error':
      // An unconfirmed send may have reached the prospect: never tell the reviewer it did not (approving again after
      // the cooldown could send it twice).
      if (/did not confirm/.test(err.message)) {
        return { status: 502, title: 'May have been sent', message: `${err.message[0].toUpperCase()}${err.message.slice(1)}. The draft is still listed; check before you approve it again.` };
      }
      return { status: 502, title: 'Not sent', message: `${err.message[0].toUpperCase()}${err.message.slice(1)}. The draft is still waiting.` };
    case 'not_found':
      return { status: 404, title: 'Not found', message: 'There is no reply at this address.' };
    case 'conflict':
      return { status: 409, title: 'Changed meanwhile', message: err.message };
    default:
      return { status: err.status, title: err.status === 400 ? 'Cannot do that' : 'Not done', message: err.message };
  }
}

/** The refusal as the desk's page (with Retry-After when the refusal says when). */
export async function refusalPage(args: PageArgs, err: ApiError) {
  const r = deskRefusal(err);
  const res = await args.problem(r.status, r.title, r.message);
  if (r.retryAfterSec) res.headers.set('Retry-After', String(r.retryAfterSec));
  return res;
}

/** Runs a desk action; a refusal of the verbs (any ApiError) becomes its page, anything else stays an error. */
export async function orRefusal(args: PageArgs, action: () => Promise<Response>) {
  try {
    return await action();
  } catch (err) {
    // provider_error (502) is a refusal too: nothing was sent and the page says so.
    if (err instanceof ApiError && (err.status < 500 || err.code === 'provider_error')) return refusalPage(args, err);
    throw err;
  }
}
