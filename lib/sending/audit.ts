import { writeAudit } from '../agency/audit';
import { actorOf } from '../agency/operation';
import type { AuthContext } from '../auth/keys';
import type { Db } from '../db/types';

/**
 * The agency audit actor of a reply decision: an agency key's decisions go to the organization's audit log as
 * `mcp:<key name>` through the tool server and `key:<key name>` through the core REST route (agency-tools §5.8,
 * agency-operator.md §4). Other keys' decisions stay in the Decision Trail alone, as before.
 */
export const replyAuditActor = (auth: Pick<AuthContext, 'kind' | 'keyName'>, via: 'rest' | 'mcp'): string | null =>
  auth.kind === 'agency' ? actorOf(auth, via) : null;

/** One audit row for a reply decision, in the decision's transaction; nothing when there is no audit actor. */
export async function auditReply(tx: Db, a: { orgId: string; actor: string | null | undefined; action: string; replyId: string; detail: Record<string, unknown>; at: Date }) {
  if (!a.actor) return;
  await writeAudit(tx, { orgId: a.orgId, actor: a.actor, action: a.action, target: `reply:${a.replyId}`, detail: a.detail, at: a.at });
}
