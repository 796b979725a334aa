import { and, desc, eq, inArray, isNull } from 'drizzle-orm';
import { followups, leads, suppressions } from '../../schema';
import type { Db } from '../db/types';
import { recordDecision } from '../decisions/record';
import { notFound } from '../errors';
import { addSuppression } from './add';
import { detectOptOut, type OptOutRequest } from './detect';
import type { Suppression } from './match';
import { normaliseEmail } from './values';

export { detectOptOut };

// The organization's do-not-contact list: org-wide `email` entries of the suppressions table. A prospect puts
// themselves on it by asking in a reply; only a person (the owner, through the admin API) takes them off.

/** Decision Trail actors: the prospect asked; the organization owner lifted. */
export const PROSPECT_ACTOR = 'prospect';
export const ADMIN_ACTOR = 'admin';

export const optOutView = (s: Suppression) => ({
  email: s.value,
  reason: s.reason,
  phrase: s.detail,
  reply_id: s.replyId,
  lead_id: s.leadId,
  created_by: s.createdBy,
  created_at: s.createdAt.toISOString(),
});
export type OptOutView = ReturnType<typeof optOutView>;

/**
 * Called by reply ingestion inside its transaction with the reply's own text (quoted history stripped): when the
 * prospect asks not to be contacted, lists the address org-wide (every client) with an `opt_out.recorded`
 * Decision Trail row, and cancels the open follow-ups planned to that address (they could never be sent; the
 * owner sees why in the follow-up list). A repeated request (already listed) changes and records nothing.
 * Returns the request found, or null.
 */
export async function recordOptOutIfRequested(
  tx: Db,
  a: { orgId: string; email: string; replyId: string; leadId: string; text: string; now: Date },
): Promise<(OptOutRequest & { added: boolean }) | null> {
  const request = detectOptOut(a.text);
  if (!request) return null;
  const email = normaliseEmail(a.email);
  const added = await addSuppression(tx, {
    orgId: a.orgId,
    clientId: null,
    kind: 'email',
    value: email,
    reason: 'opt_out',
    replyId: a.replyId,
    leadId: a.leadId,
    detail: request.phrase,
    createdBy: PROSPECT_ACTOR,
    now: a.now,
  });
  if (!added) return { ...request, added: false };
  await recordDecision(tx, {
    orgId: a.orgId,
    actor: PROSPECT_ACTOR,
    action: 'opt_out.recorded',
    replyId: a.replyId,
    leadId: a.leadId,
    detail: { email, phrase: request.phrase },
    at: a.now,
  });
  await cancelFollowupsTo(tx, { orgId: a.orgId, email, optOutReplyId: a.replyId, now: a.now });
  return { ...request, added: true };
}

/** Planned and in-review follow-ups to the address, on any of the organization's leads, become cancelled. */
async function cancelFollowupsTo(tx: Db, a: { orgId: string; email: string; optOutReplyId: string; now: Date }) {
  const open = await tx
    .select({ id: followups.id, kind: followups.kind, status: followups.status, replyId: followups.replyId, leadId: followups.leadId })
    .from(followups)
    .innerJoin(leads, eq(leads.id, followups.leadId))
    .where(and(eq(followups.orgId, a.orgId), inArray(followups.status, ['planned', 'review']), eq(leads.orgId, a.orgId), eq(leads.email, a.email)))
    .for('update', { of: followups });
  if (open.length === 0) return;
  const reason = `the recipient opted out (reply ${a.optOutReplyId})`;
  await tx
    .update(followups)
    .set({ status: 'cancelled', reason, nextAttemptAt: null, updatedAt: a.now })
    .where(inArray(followups.id, open.map((f) => f.id)));
  for (const f of open) {
    await recordDecision(tx, {
      orgId: a.orgId,
      actor: PROSPECT_ACTOR,
      action: 'followup.cancelled',
      replyId: f.replyId,
      leadId: f.leadId,
      detail: { followup_id: f.id, kind: f.kind, previous_status: f.status, code: 'recipient_opted_out', opt_out_reply_id: a.optOutReplyId },
      at: a.now,
    });
  }
}

const orgWideEmail = (orgId: string) => and(eq(suppressions.orgId, orgId), isNull(suppressions.clientId), eq(suppressions.kind, 'email'));

/** GET /admin/v1/orgs/{org_id}/opt-outs: the organization's do-not-contact addresses, newest first. */
export async function listOptOuts(db: Db, orgId: string, page: { limit: number; offset: number } = { limit: 200, offset: 0 }): Promise<OptOutView[]> {
  const rows = await db
    .select()
    .from(suppressions)
    .where(orgWideEmail(orgId))
    .orderBy(desc(suppressions.createdAt), desc(suppressions.id))
    .limit(page.limit)
    .offset(page.offset);
  return rows.map(optOutView);
}

/**
 * DELETE /admin/v1/orgs/{org_id}/opt-outs/{email}: a person takes the address off the list (a prospect who asked
 * to hear from us again, or a request read wrongly), with an `opt_out.lifted` row. Follow-ups cancelled by the
 * opt-out stay cancelled: the owner plans again what should still go out. 404 when the address is not listed.
 */
export async function liftOptOut(db: Db, a: { orgId: string; email: string; now: Date }): Promise<OptOutView & { lifted_at: string }> {
  const email = normaliseEmail(a.email);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .delete(suppressions)
      .where(and(orgWideEmail(a.orgId), eq(suppressions.value, email)))
      .returning();
    if (!row) throw notFound('opt-out');
    await recordDecision(tx, {
      orgId: a.orgId,
      actor: ADMIN_ACTOR,
      action: 'opt_out.lifted',
      replyId: row.replyId,
      leadId: row.leadId,
      detail: { email: row.value, reason: row.reason, listed_at: row.createdAt.toISOString() },
      at: a.now,
    });
    return { ...optOutView(row), lifted_at: a.now.toISOString() };
  });
}
