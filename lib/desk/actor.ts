import type { SendActor } from '../sending';
import type { Tenant } from '../tenancy';
import type { WebSession } from '../web/sessions';

/**
 * A desk user acts on governed send as a reviewer of its organization: the existing verbs, with the person as the
 * actor. `keyId` names the person, so the send limits (claimSend counts per keyId) are counted per desk user; level
 * 1 because a person at the desk reviews, it does not grant autonomy. Mirrors lib/portal/edit.ts portalWriter.
 */
export function deskActor(session: WebSession): SendActor {
  const u = session.user;
  if (u.kind !== 'desk') throw new Error('a desk action needs a desk session');
  return { keyId: `desk_user:${u.id}`, keyName: `${u.name} (desk)`, autonomyLevel: 1, orgId: u.orgId, clientId: null };
}

/** The approver recorded in the Decision Trail and on `reply.approved`: the person's own name. */
export const deskApprover = (session: WebSession) => session.user.name;

/** What a desk user may read: its whole organization (desk users belong to no client). */
export const deskTenant = (session: WebSession): Tenant => ({ orgId: deskActor(session).orgId, clientId: null });
