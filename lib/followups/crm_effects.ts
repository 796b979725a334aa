import { and, eq, inArray } from 'drizzle-orm';
import { followups } from '../../schema';
import type { Db } from '../db/types';

export type FollowupEffects = { cancelled: string[]; moved_to_review: string[] };

/**
 * What a CRM write does to the lead's planned messages (core §3 "Effects of a CRM update"), in the write's
 * transaction:
 * - phase set to won or lost: every follow-up and check-in not yet sent (planned or waiting in review) is
 *   cancelled: the deal is decided, nothing automatic should reach the prospect;
 * - any other CRM write: planned follow-ups go to review (a person decides whether they still go out), the reason
 *   naming the key. Check-ins keep their plan: the spec names follow-ups only, and a check-in (after an absence)
 *   is not a sales nudge that a CRM update makes stale.
 */
export async function applyCrmWriteToFollowups(
  tx: Db,
  w: { orgId: string; leadId: string; keyName: string; closedAs: 'won' | 'lost' | null; now: Date },
): Promise<FollowupEffects> {
  const ofLead = and(eq(followups.orgId, w.orgId), eq(followups.leadId, w.leadId));
  if (w.closedAs) {
    const cancelled = await tx
      .update(followups)
      .set({ status: 'cancelled', reason: `lead marked ${w.closedAs} through the CRM API by key "${w.keyName}"`, updatedAt: w.now })
      .where(and(ofLead, inArray(followups.status, ['planned', 'review'])))
      .returning({ id: followups.id });
    return { cancelled: cancelled.map((f) => f.id), moved_to_review: [] };
  }
  const moved = await tx
    .update(followups)
    .set({ status: 'review', reason: `CRM update by key "${w.keyName}": a person decides whether this follow-up still goes out`, updatedAt: w.now })
    .where(and(ofLead, eq(followups.status, 'planned'), eq(followups.kind, 'followup')))
    .returning({ id: followups.id });
  return { cancelled: [], moved_to_review: moved.map((f) => f.id) };
}
