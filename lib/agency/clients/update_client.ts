import { eq } from 'drizzle-orm';
import { clients } from '../../../schema';
import { changesBetween } from '../../orgs/admin';
import { ApiError } from '../../errors';
import { writeAudit } from '../audit';
import type { AgencyCall } from '../operation';
import { clientView, findClient } from './view';

export type UpdateClientInput = { client_id: string; name?: string; auto_write?: boolean; auto_protect?: boolean; if_updated_at?: string };

/**
 * Changes a client's own fields. With `if_updated_at` the change applies only if the client was not changed since
 * that moment (what the caller last read); otherwise 409 `conflict` carrying the current client, so an assistant
 * never overwrites a person's edit it has not seen. Nothing changed → no write, no audit row.
 */
export async function updateClient(call: AgencyCall, input: UpdateClientInput) {
  const { orgId } = call.auth;
  return call.services.db.transaction(async (tx) => {
    const current = await findClient(tx, orgId, input.client_id, true);
    if (input.if_updated_at !== undefined && Date.parse(input.if_updated_at) !== current.updatedAt.getTime()) {
      throw new ApiError('conflict', `the client changed at ${current.updatedAt.toISOString()}, after if_updated_at; read it again and reapply your change`, {
        body: { client: clientView(current) },
      });
    }
    const next = {
      name: input.name?.trim() ?? current.name,
      autoWrite: input.auto_write ?? current.autoWrite,
      autoProtect: input.auto_protect ?? current.autoProtect,
    };
    const changes = changesBetween(
      { name: current.name, auto_write: current.autoWrite, auto_protect: current.autoProtect },
      { name: next.name, auto_write: next.autoWrite, auto_protect: next.autoProtect },
    );
    if (Object.keys(changes).length === 0) return { client: clientView(current), updated: false };
    const [row] = await tx.update(clients).set({ ...next, updatedAt: call.now }).where(eq(clients.id, current.id)).returning();
    await writeAudit(tx, { orgId, actor: call.actor, action: 'client.updated', target: `client:${row.id}`, detail: { changes }, at: call.now });
    return { client: clientView(row), updated: true };
  });
}
