import type { AuthContext } from '../auth/keys';
import { addCrmNote, NOTE_MAX_CHARS } from '../crm/add_note';
import { PHASES, updateCrmLead, type CrmPatch, type Phase } from '../crm/update_lead';
import type { CrmWriteDeps } from '../crm/update_lead';
import { ApiError } from '../errors';
import type { Services } from '../services';
import type { WebSession } from '../web/sessions';

const NEXT_ACTION_NOTE_MAX = 2_000;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A portal user writes as a CRM caller of their client: the same verbs, limits (60 writes a minute, counted per
 * user), conflict rule and Decision Trail, with the person's name as the actor.
 */
export function portalWriter(session: WebSession): AuthContext {
  const u = session.user;
  if (u.kind !== 'portal' || !u.clientId) throw new Error('a portal write needs a portal session');
  return {
    keyId: `portal_user:${u.id}`,
    keyName: `${u.name} (portal)`,
    prefix: 'live',
    orgId: u.orgId,
    orgName: '',
    features: { crm: true, agency_tools: false, studio: false },
    clientId: u.clientId,
    scopes: ['crm.read', 'crm.write'],
    autonomyLevel: 0,
    rateLimitPerMinute: 60,
    dailyCreditLimit: 0,
    readOnly: false,
    kind: 'api',
    orgDemo: false,
  };
}

export type PortalEdit = { patch: CrmPatch; note: string | null };

/** The lead page's form, strictly: each problem is a sentence the page shows (400), nothing is written. */
export function parsePortalEdit(form: Record<string, string>): PortalEdit {
  const patch: CrmPatch = {};
  const phase = form.phase?.trim();
  if (phase) {
    if (!(PHASES as readonly string[]).includes(phase)) throw new ApiError('validation_error', `Phase must be one of ${PHASES.join(', ')}.`);
    patch.phase = phase as Phase;
  }
  const date = form.next_action_date?.trim() ?? '';
  const actionNote = form.next_action_note?.trim() ?? '';
  if (date) {
    // A real calendar day, as the CRM API's date check wants (2024-02-31 parses, but is no day).
    if (!ISO_DATE.test(date) || Number.isNaN(Date.parse(date)) || new Date(date).toISOString().slice(0, 10) !== date) throw new ApiError('validation_error', 'The next action date must be a date (YYYY-MM-DD).');
    if (actionNote.length > NEXT_ACTION_NOTE_MAX) throw new ApiError('validation_error', `The next action note may have at most ${NEXT_ACTION_NOTE_MAX} characters.`);
    patch.next_action = { date, note: actionNote };
  } else if (actionNote) {
    throw new ApiError('validation_error', 'A next action needs a date.');
  } else if (form.next_action_date !== undefined) {
    patch.next_action = null;
  }
  const seen = form.if_updated_at?.trim();
  if (seen === undefined) throw new ApiError('validation_error', 'The form is incomplete: reload the page and try again.');
  if (seen !== '' && Number.isNaN(Date.parse(seen))) throw new ApiError('validation_error', 'The form is incomplete: reload the page and try again.');
  patch.if_updated_at = seen === '' ? null : seen;
  const note = form.note?.trim() ?? '';
  if (note.length > NOTE_MAX_CHARS) throw new ApiError('validation_error', `A note may have at most ${NOTE_MAX_CHARS} characters.`);
  return { patch, note: note || null };
}

/**
 * Saves the form through the CRM verbs: the field change first (with the page's crm_updated_at, so a change made
 * meanwhile by the CRM or a colleague is a 409 and nothing is written), then the note.
 */
export async function editPortalLead({ services, session, leadId, edit }: { services: Services; session: WebSession; leadId: string; edit: PortalEdit }) {
  const deps: CrmWriteDeps = { db: services.db, limits: services.limits, auth: portalWriter(session), now: services.clock.now(), portalUrl: services.config.portalUrl };
  let lead = await updateCrmLead({ deps, leadId, input: edit.patch });
  if (!edit.note) return lead;
  try {
    lead = await addCrmNote({ deps, leadId, text: edit.note });
  } catch (err) {
    // The fields are saved by now (their own transaction): say so, or the person re-enters them into a stale form.
    // The form always posts every field; whether they changed anything shows in the change stamp it read.
    const stamp = (v: string | null | undefined) => (v ? Date.parse(v) : null);
    const fieldsChanged = stamp(lead.crm_updated_at) !== stamp(edit.patch.if_updated_at);
    if (err instanceof ApiError && fieldsChanged) {
      const why = err.code === 'crm_write_rate_limited' ? 'too many changes were made in the last minute; add it again in a minute' : err.message;
      throw new ApiError(err.code, `Your other changes were saved, but the note was not: ${why}.`, err.extra);
    }
    throw err;
  }
  return lead;
}
