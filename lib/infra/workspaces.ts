// The domain workspaces at the mailbox provider (Google Workspace tenants, the simulation's workspaces) and the one
// a client's mailboxes are created in: chosen once per client, checked against the provider's list when set.
import { domainRules } from '../../schema';
import { findClient } from '../agency/clients/view';
import { writeAudit } from '../agency/audit';
import type { AgencyCall } from '../agency/operation';
import { notFound } from '../errors';
import type { Workspace } from '../ports/mailbox_provider/port';
import { readDomainRule, type DomainRule } from './rule';

export async function listDomainWorkspaces(call: AgencyCall, input: { client_id: string }): Promise<{ workspaces: Workspace[]; chosen: string | null }> {
  const { db, studio } = call.services;
  await findClient(db, call.auth.orgId, input.client_id);
  const rule = await readDomainRule(db, call.auth.orgId, input.client_id);
  const workspaces = await studio.mailboxProvider.listWorkspaces({ db }, call.auth.orgId);
  return { workspaces, chosen: rule.workspace?.id ?? null };
}

/**
 * Chooses the client's workspace. Idempotent: choosing the one already chosen changes nothing and writes no audit
 * row (`updated: false`); a workspace the provider does not list is not_found naming it.
 */
export async function setDomainWorkspace(call: AgencyCall, input: { client_id: string; workspace_id: string }): Promise<{ domain_rule: DomainRule; updated: boolean }> {
  const { db, studio } = call.services;
  const orgId = call.auth.orgId;
  await findClient(db, orgId, input.client_id);
  // Asked before the transaction: a provider call never holds a database transaction open.
  const workspaces = await studio.mailboxProvider.listWorkspaces({ db }, orgId);
  const ws = workspaces.find((w) => w.id === input.workspace_id);
  if (!ws) {
    const known = workspaces.map((w) => w.id).join(', ') || 'none';
    throw notFound(`workspace ${JSON.stringify(input.workspace_id)} (list_domain_workspaces lists: ${known})`);
  }
  return db.transaction(async (tx) => {
    await findClient(tx, orgId, input.client_id, true);
    const before = await readDomainRule(tx, orgId, input.client_id);
    if (before.workspace?.id === ws.id && before.workspace.name === ws.name) return { domain_rule: before, updated: false };
    await tx
      .insert(domainRules)
      .values({ clientId: input.client_id, orgId, workspaceId: ws.id, workspaceName: ws.name, updatedBy: call.actor, updatedAt: call.now })
      .onConflictDoUpdate({ target: domainRules.clientId, set: { workspaceId: ws.id, workspaceName: ws.name, updatedBy: call.actor, updatedAt: call.now } });
    await writeAudit(tx, {
      orgId,
      actor: call.actor,
      action: 'domain_workspace.set',
      target: `client:${input.client_id}`,
      detail: { workspace_id: ws.id, workspace_name: ws.name, previous: before.workspace?.id ?? null },
      at: call.now,
    });
    return { domain_rule: await readDomainRule(tx, orgId, input.client_id), updated: true };
  });
}
