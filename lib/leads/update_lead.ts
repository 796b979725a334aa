import { eq } from 'drizzle-orm';
import { leads } from '../../schema';
import type { AuthContext } from '../auth/keys';
import type { Db } from '../db/types';
import { recordDecision } from '../decisions/record';
import { emitEvent } from '../events/outbox';
import { stampLeadChange } from '../crm/change_clock';
import { tenantOf } from '../tenancy';
import { findReplyForUpdate } from './find_reply';

export type UpdateLeadInput = { classification?: string; notes?: string };

/**
 * Changes a lead's classification and/or notes, addressed by one of its replies. The change, its Decision
 * Trail row and its `lead.updated` event commit together; a no-op change writes nothing.
 */
export async function updateLead({ db, auth, replyId, input, now }: { db: Db; auth: AuthContext; replyId: string; input: UpdateLeadInput; now: Date }) {
  return db.transaction(async (tx) => {
    const { lead, reply } = await findReplyForUpdate(tx, tenantOf(auth), replyId);
    const changes: Partial<typeof leads.$inferInsert> = {};
    if (input.classification !== undefined && input.classification !== lead.classification) changes.classification = input.classification;
    if (input.notes !== undefined && input.notes !== lead.notes) changes.notes = input.notes;
    if (Object.keys(changes).length === 0) {
      return { updated: false, email: lead.email, classification: lead.classification, updated_at: lead.updatedAt.toISOString() };
    }
    await tx.update(leads).set(changes).where(eq(leads.id, lead.id));
    const changed = Object.keys(changes);
    await recordDecision(tx, {
      orgId: auth.orgId,
      actor: auth.keyName,
      action: 'lead.updated',
      replyId: reply.id,
      leadId: lead.id,
      detail: { changed, from: { classification: lead.classification }, to: { classification: changes.classification ?? lead.classification } },
      at: now,
    });
    await emitEvent(tx, {
      orgId: auth.orgId,
      kind: 'lead.updated',
      at: now,
      data: {
        lead_id: lead.id,
        reply_id: reply.id,
        email: lead.email,
        campaign_id: lead.campaignId,
        classification: changes.classification ?? lead.classification,
        previous_classification: lead.classification,
        changed,
      },
    });
    const classification = changes.classification ?? lead.classification;
    // Last: `updated_at` from the change clock (the CRM feed's guarantee). The legacy notes are the CRM view's
    // first note, so changing them is a CRM change too (`crm_updated_at`, which `if_updated_at` checks).
    const stamp = await stampLeadChange(tx, auth.orgId, [lead.id], { crm: changes.notes !== undefined });
    return { updated: true, email: lead.email, classification, updated_at: stamp.toISOString() };
  });
}
