import { crmNotes } from '../../schema';
import { recordDecision } from '../decisions/record';
import { applyCrmWriteToFollowups } from '../followups/crm_effects';
import { claimCrmWrite, crmTenantOf } from './access';
import { findCrmLeadForUpdate } from './get_lead';
import { stamped, type CrmWriteDeps } from './update_lead';
import type { CrmLead } from './view';

export const NOTE_MAX_CHARS = 5_000;

/**
 * POST /v1/crm/leads/{id}/notes: appends a note written by the key (author = the key's name). A note is a CRM
 * write: rate-limited, recorded in the Decision Trail, and it sends the lead's planned follow-ups to review.
 */
export async function addCrmNote({ deps, leadId, text }: { deps: CrmWriteDeps; leadId: string; text: string }): Promise<CrmLead> {
  const { db, auth, now, portalUrl } = deps;
  const tenant = crmTenantOf(auth);
  await claimCrmWrite(deps.limits, auth.keyId);
  return db.transaction(async (tx) => {
    const lead = await findCrmLeadForUpdate(tx, tenant, leadId);
    const [note] = await tx.insert(crmNotes).values({ orgId: auth.orgId, leadId: lead.id, at: now, by: auth.keyName, text }).returning({ id: crmNotes.id });
    const followups = await applyCrmWriteToFollowups(tx, { orgId: auth.orgId, leadId: lead.id, keyName: auth.keyName, closedAs: null, now });
    await recordDecision(tx, {
      orgId: auth.orgId,
      actor: auth.keyName,
      action: 'crm.note_added',
      leadId: lead.id,
      detail: { key_id: auth.keyId, note_id: note.id, chars: text.length, followups },
      at: now,
    });
    return stamped(tx, tenant, lead.id, portalUrl);
  });
}
