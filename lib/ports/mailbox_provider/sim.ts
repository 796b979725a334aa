// The simulated mailbox provider (agency-operator.md §6): two domain workspaces per organization, and each mailbox
// created is a `sim_mailboxes` row (GET /admin/v1/orgs/{org_id}/sim/mailboxes). Ids and credentials are functions of
// SHA-256 of SIM_SEED and the input, so the same organization sees the same workspaces on every run. A workspace has
// 500 seats; the mailboxes created in it take them.
import { and, count, eq } from 'drizzle-orm';
import { simMailboxes } from '../../../schema';
import { sha256Hex } from '../../crypto/secrets';
import type { PortDeps } from '../registrar/port';
import type { CreateMailboxInput, CreateMailboxResult, MailboxProvider, Workspace } from './port';

export const SIM_WORKSPACE_SEATS = 500;
const WORKSPACES_PER_ORG = 2;
const CREDENTIAL_CHARS = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

async function workspaceIds(seed: string, orgId: string): Promise<string[]> {
  const hash = await sha256Hex(`${seed}|workspace|${orgId}`);
  return Array.from({ length: WORKSPACES_PER_ORG }, (_, i) => `sim-ws-${hash.slice(0, 8)}-${i + 1}`);
}

/** 20 characters from the hash: a simulation's password is not a secret, only shaped like one. */
async function simCredential(seed: string, orgId: string, address: string): Promise<string> {
  const hash = await sha256Hex(`${seed}|credential|${orgId}|${address}`);
  let out = '';
  for (let i = 0; i < 20; i++) out += CREDENTIAL_CHARS[parseInt(hash.slice(i * 3, i * 3 + 3), 16) % CREDENTIAL_CHARS.length];
  return out;
}

export function createSimMailboxProvider(seed: string): MailboxProvider {
  async function seatsTaken(deps: PortDeps, orgId: string): Promise<Map<string, number>> {
    const rows = await deps.db
      .select({ workspaceId: simMailboxes.workspaceId, n: count() })
      .from(simMailboxes)
      .where(eq(simMailboxes.orgId, orgId))
      .groupBy(simMailboxes.workspaceId);
    return new Map(rows.map((r) => [r.workspaceId, Number(r.n)]));
  }

  return {
    kind: 'sim',

    async listWorkspaces(deps: PortDeps, orgId: string): Promise<Workspace[]> {
      const taken = await seatsTaken(deps, orgId);
      return (await workspaceIds(seed, orgId)).map((id, i) => ({
        id,
        name: `Workspace ${i + 1} (simulated)`,
        provider: 'sim',
        seats_left: Math.max(0, SIM_WORKSPACE_SEATS - (taken.get(id) ?? 0)),
        simulated: true,
      }));
    },

    async createMailbox(deps: PortDeps, input: CreateMailboxInput): Promise<CreateMailboxResult> {
      const address = input.address.trim().toLowerCase();
      const fail = (reason: 'no_seats' | 'error', detail: string): CreateMailboxResult => ({ ok: false, reason, detail, simulated: true });
      if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(address)) return fail('error', `"${input.address}" is not a mailbox address`);
      if (!(await workspaceIds(seed, input.orgId)).includes(input.workspaceId)) return fail('error', `unknown workspace ${input.workspaceId}`);
      const provider_id = `sim-mbx-${(await sha256Hex(`${seed}|mailbox|${input.orgId}|${address}`)).slice(0, 16)}`;
      const existing = await deps.db
        .select({ id: simMailboxes.id })
        .from(simMailboxes)
        .where(and(eq(simMailboxes.orgId, input.orgId), eq(simMailboxes.address, address)));
      if (existing.length) return { ok: true, provider_id, credential: null, repeated: true, simulated: true };
      if (((await seatsTaken(deps, input.orgId)).get(input.workspaceId) ?? 0) >= SIM_WORKSPACE_SEATS) {
        return fail('no_seats', `workspace ${input.workspaceId} has no seats left (${SIM_WORKSPACE_SEATS})`);
      }
      const displayName = `${input.firstName} ${input.lastName}`.trim() || address;
      const inserted = await deps.db
        .insert(simMailboxes)
        .values({ orgId: input.orgId, workspaceId: input.workspaceId, address, displayName })
        .onConflictDoNothing()
        .returning({ id: simMailboxes.id });
      // Lost a race with the same address: that call created it and holds its credential.
      if (!inserted.length) return { ok: true, provider_id, credential: null, repeated: true, simulated: true };
      return { ok: true, provider_id, credential: await simCredential(seed, input.orgId, address), repeated: false, simulated: true };
    },
  };
}
