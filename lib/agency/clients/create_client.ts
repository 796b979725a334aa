import { and, eq, sql } from 'drizzle-orm';
import { clients, organizations } from '../../../schema';
import { rows } from '../../db/types';
import { ApiError, notFound } from '../../errors';
import { writeAudit } from '../audit';
import type { AgencyCall } from '../operation';
import { clientView } from './view';

const DEFAULT_PORTAL = { show_hot: true, show_warm: true, show_cold: true, show_not_interested: false };

/**
 * Creates a client, or returns the one of the same name (`existed: true`, nothing written): an assistant that
 * repeats a setup step must not make a second client. Names compare without case and outer spaces. The plan's
 * client limit is counted under the organization's row lock, so concurrent creates cannot pass it.
 */
export async function createClient(call: AgencyCall, input: { name: string; auto_write?: boolean; auto_protect?: boolean }) {
  const { orgId } = call.auth;
  const name = input.name.trim();
  return call.services.db.transaction(async (tx) => {
    const [org] = await tx.select().from(organizations).where(eq(organizations.id, orgId)).for('no key update');
    if (!org) throw notFound('organization');
    const [same] = await tx.select().from(clients).where(and(eq(clients.orgId, orgId), sql`lower(${clients.name}) = lower(${name})`)).limit(1);
    if (same) return { client: clientView(same), existed: true };
    const [{ n }] = await rows<{ n: number }>(tx, sql`SELECT count(*)::int AS n FROM clients WHERE org_id = ${orgId}::uuid`);
    if (Number(n) >= org.clientLimit) {
      throw new ApiError('client_limit_reached', `the plan allows ${org.clientLimit} clients and all are in use`, { body: { client_limit: org.clientLimit, clients_used: Number(n) } });
    }
    const [row] = await tx
      .insert(clients)
      .values({ orgId, name, portal: DEFAULT_PORTAL, autoWrite: input.auto_write ?? false, autoProtect: input.auto_protect ?? true, createdAt: call.now, updatedAt: call.now })
      .returning();
    await writeAudit(tx, { orgId, actor: call.actor, action: 'client.created', target: `client:${row.id}`, detail: { name }, at: call.now });
    return { client: clientView(row), existed: false };
  });
}
