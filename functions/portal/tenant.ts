import type { CrmTenant } from '../../lib/crm/view';
import type { WebSession } from '../../lib/web/sessions';

/** A portal session reads as the CRM tenant of its client: the same scope a client-locked CRM key has. */
export function portalTenant(session: WebSession): CrmTenant {
  if (session.user.kind !== 'portal' || !session.user.clientId) throw new Error('a portal page needs a portal session');
  return { orgId: session.user.orgId, clientId: session.user.clientId };
}
