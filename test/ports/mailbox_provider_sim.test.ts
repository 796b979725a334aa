// The simulated mailbox provider: two deterministic workspaces per organization with 500 seats each, a mailbox a
// `sim_mailboxes` row, creating the same address again answering it as repeated without a credential, a credential
// derived from the hash, and an unknown workspace refused.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSimMailboxProvider, SIM_WORKSPACE_SEATS } from '../../lib/ports/mailbox_provider/sim';
import { simMailboxes } from '../../schema';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { newTenant } from '../helpers/tenant';

let env: TestEnv;
let orgId: string;
let otherOrgId: string;
beforeAll(async () => {
  env = await startTestEnv();
  orgId = (await newTenant(env)).org.id;
  otherOrgId = (await newTenant(env)).org.id;
});
afterAll(() => env.close());

const deps = () => ({ db: env.services.db });
const mbx = (workspaceId: string, address: string) => ({ orgId, workspaceId, address, firstName: 'Anna', lastName: 'Berg' });

describe('the simulated mailbox provider', () => {
  it('lists two deterministic workspaces per organization, other ones for another organization or seed', async () => {
    const p = createSimMailboxProvider('mbx');
    const ws = await p.listWorkspaces(deps(), orgId);
    expect(ws).toHaveLength(2);
    expect(ws.map((w) => w.name)).toEqual(['Workspace 1 (simulated)', 'Workspace 2 (simulated)']);
    for (const w of ws) {
      expect(w.id).toMatch(/^sim-ws-[0-9a-f]{8}-[12]$/);
      expect(w).toMatchObject({ provider: 'sim', seats_left: SIM_WORKSPACE_SEATS, simulated: true });
    }
    expect(await createSimMailboxProvider('mbx').listWorkspaces(deps(), orgId)).toEqual(ws);
    expect((await p.listWorkspaces(deps(), otherOrgId))[0].id).not.toBe(ws[0].id);
    expect((await createSimMailboxProvider('other-seed').listWorkspaces(deps(), orgId))[0].id).not.toBe(ws[0].id);
  });

  it('creates a mailbox once: a credential the first time, repeated without one after; seats are taken', async () => {
    const p = createSimMailboxProvider('mbx');
    const [ws] = await p.listWorkspaces(deps(), orgId);
    const first = await p.createMailbox(deps(), mbx(ws.id, 'Anna@GetAcme.com'));
    expect(first).toMatchObject({ ok: true, repeated: false, simulated: true });
    if (!first.ok) throw new Error('not created');
    expect(first.credential).toMatch(/^\S{20}$/);
    expect(first.provider_id).toMatch(/^sim-mbx-[0-9a-f]+$/);
    const again = await p.createMailbox(deps(), mbx(ws.id, 'anna@getacme.com'));
    expect(again).toEqual({ ok: true, provider_id: first.provider_id, credential: null, repeated: true, simulated: true });
    const rows = await env.services.db.select().from(simMailboxes).where(and(eq(simMailboxes.orgId, orgId), eq(simMailboxes.address, 'anna@getacme.com')));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ workspaceId: ws.id, displayName: 'Anna Berg' });
    expect((await p.listWorkspaces(deps(), orgId))[0].seats_left).toBe(SIM_WORKSPACE_SEATS - 1);
    // Another address gets another credential.
    const other = await p.createMailbox(deps(), mbx(ws.id, 'bob@getacme.com'));
    expect(other.ok && other.credential !== first.credential).toBe(true);
  });

  it('concurrent creates of one address make one row and one credential', async () => {
    const p = createSimMailboxProvider('mbx');
    const [, ws2] = await p.listWorkspaces(deps(), orgId);
    const results = await Promise.all(Array.from({ length: 6 }, () => p.createMailbox(deps(), mbx(ws2.id, 'race@tryacme.com'))));
    expect(results.every((r) => r.ok)).toBe(true);
    expect(results.filter((r) => r.ok && r.credential !== null)).toHaveLength(1);
    expect(await env.services.db.select().from(simMailboxes).where(and(eq(simMailboxes.orgId, orgId), eq(simMailboxes.address, 'race@tryacme.com')))).toHaveLength(1);
  });

  it('refuses an unknown workspace (another organization\'s included) and a malformed address', async () => {
    const p = createSimMailboxProvider('mbx');
    const [theirs] = await p.listWorkspaces(deps(), otherOrgId);
    expect(await p.createMailbox(deps(), mbx('sim-ws-nope-1', 'x@getacme.com'))).toMatchObject({ ok: false, reason: 'error' });
    expect(await p.createMailbox(deps(), mbx(theirs.id, 'x@getacme.com'))).toMatchObject({ ok: false, reason: 'error' });
    const [mine] = await p.listWorkspaces(deps(), orgId);
    expect(await p.createMailbox(deps(), mbx(mine.id, 'not an address'))).toMatchObject({ ok: false, reason: 'error' });
    expect(await env.services.db.select().from(simMailboxes).where(eq(simMailboxes.address, 'x@getacme.com'))).toHaveLength(0);
  });
});
