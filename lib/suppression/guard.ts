import type { Db } from '../db/types';
import { ApiError } from '../errors';
import { findSuppression, type Suppression } from './match';

/**
 * The refusal for a message to a blocked recipient (409 recipient_opted_out), or null when nothing blocks it.
 * Every path that contacts a prospect asks this inside its transaction before any limit or provider call:
 * send, approve and planned follow-ups (sendNow), and queueing a draft (sendReply).
 */
export async function optedOutRefusal(tx: Db, a: { orgId: string; clientId: string | null; email: string }): Promise<ApiError | null> {
  const entry = await findSuppression(tx, a);
  return entry ? new ApiError('recipient_opted_out', refusalMessage(a.email, entry)) : null;
}

function refusalMessage(email: string, e: Suppression): string {
  const listed = e.createdAt.toISOString();
  const what = e.kind === 'domain' ? `its domain ${e.value}` : 'this address';
  if (e.clientId !== null) return `${email} is on this client's never-mail list (${what}, since ${listed}); nothing is sent to it`;
  if (e.reason === 'opt_out') {
    return `${email} opted out${e.kind === 'domain' ? ` (${what})` : ''} on ${listed}; nothing is sent to it unless the organization owner lifts the opt-out`;
  }
  return `${email} is on the organization's do-not-contact list (${what}, since ${listed}); nothing is sent to it`;
}
