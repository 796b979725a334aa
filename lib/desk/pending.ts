import { and, eq } from 'drizzle-orm';
import { drafts, replies } from '../../schema';
import { sha256Hex } from '../crypto/secrets';
import type { Db } from '../db/types';
import { alreadySent, draftChangedMeanwhile, noPendingDraft } from '../sending/refusals';
import type { Tenant } from '../tenancy';
import { isUuid } from '../ids';
import { noReplyHere } from './reply';

/**
 * What a reviewer approves is the text they read. approveDraft sends the draft "as it stands", and a key may
 * replace it (same suggestion id) while the page is open, so every desk form carries this fingerprint of the text it
 * showed and the desk refuses when the draft changed meanwhile. This read is outside the verb's row lock: it
 * narrows the window to the few milliseconds before the verb's transaction, it does not close it (the verb still
 * decides exactly-once and every other rule).
 */
export const draftFingerprint = (body: string) => sha256Hex(body);

/** A reply's state and pending draft (null when none) in the tenant; 404 for an unknown or another tenant's reply. */
export async function readReplyDraft(db: Db, tenant: Tenant, replyId: string) {
  if (!isUuid(replyId)) throw noReplyHere();
  const [row] = await db
    .select({ status: replies.status, sentAt: replies.sentAt, draft: drafts })
    .from(replies)
    .leftJoin(drafts, eq(drafts.replyId, replies.id))
    .where(and(eq(replies.id, replyId), eq(replies.orgId, tenant.orgId)));
  if (!row) throw noReplyHere();
  return row;
}

/**
 * The pending draft, or the refusal the verbs give: already_sent (with the time) for a sent reply,
 * no_pending_draft when nothing waits (rejected or skipped in another tab).
 */
export async function pendingDraft(db: Db, tenant: Tenant, replyId: string) {
  const row = await readReplyDraft(db, tenant, replyId);
  if (row.status === 'sent') throw alreadySent(row.sentAt);
  if (!row.draft) throw noPendingDraft();
  return row.draft;
}

/** Refuses when the draft's text is no longer the text the page showed. */
export async function assertDraftUnchanged(body: string, seen: string) {
  if ((await draftFingerprint(body)) !== seen) throw draftChangedMeanwhile();
}
