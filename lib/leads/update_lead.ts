import { eq } from 'drizzle-orm';
import { crmNotes, leads } from '../../schema';
import type { AuthContext } from '../auth/keys';
import type { Db } from '../db/types';
import { recordDecision } from '../decisions/record';
import { emitEvent } from '../events/outbox';
import { stampLeadChange } from '../crm/change_clock';
import { tenantOf } from '../tenancy';
import { findReplyForUpdate } from './find_reply';

export type UpdateLeadInput = { classification?: string; notes?: string };

/**
 * Changes a lead's classification and/or adds a note, addressed by one of its replies. A note is appended to the
 * lead's notes list (the one the CRM API shows: `crm_notes`, at = now, by = the key's name); it never replaces an
 * earlier note. The change, its Decision Trail row and its `lead.updated` event commit together; a request that
 * changes nothing (the classification it already has, no note) writes nothing.
 */
export async function updateLead({ db, auth, replyId, input, now }: { db: Db; auth: AuthContext; replyId: string; input: UpdateLeadInput; now: Date }) {
  return db.transaction(async (tx) => {
    const { lead, reply } = await findReplyForUpdate(tx, tenantOf(auth), replyId);
    const classification = input.classification !== undefined && input.classification !== lead.classification ? input.classification : undefined;
    const note = input.notes;
    if (classification === undefined && note === undefined) {
      return { updated: false, email: lead.email, classification: lead.classification, updated_at: lead.updatedAt.toISOString() };
    }
    const changed: string[] = [];
    if (classification !== undefined) {
      await tx.update(leads).set({ classification }).where(eq(leads.id, lead.id));
      changed.push('classification');
    }
    let noteId: string | null = null;
    if (note !== undefined) {
      [{ id: noteId }] = await tx.insert(crmNotes).values({ orgId: auth.orgId, leadId: lead.id, at: now, by: auth.keyName, text: note }).returning({ id: crmNotes.id });
      changed.push('notes');
    }
    const current = classification ?? lead.classification;
    await recordDecision(tx, {
      orgId: auth.orgId,
      actor: auth.keyName,
      action: 'lead.updated',
      replyId: reply.id,
      leadId: lead.id,
      detail: {
        changed,
        from: { classification: lead.classification },
        to: { classification: current },
        ...(noteId ? { note_id: noteId, note_chars: note!.length } : {}),
      },
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
        classification: current,
        previous_classification: lead.classification,
        changed,
      },
    });
    // Last: `updated_at` from the change clock (the CRM feed's guarantee). A note is part of the CRM view, so adding
    // one is a CRM change too (`crm_updated_at`, which `if_updated_at` checks).
    const stamp = await stampLeadChange(tx, auth.orgId, [lead.id], { crm: note !== undefined });
    return { updated: true, email: lead.email, classification: current, updated_at: stamp.toISOString() };
  });
}
