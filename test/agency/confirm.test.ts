import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTwoStep, type TwoStepDef } from '../../lib/agency/confirm';
import { chargeCredits } from '../../lib/credits/ledger';
import { auditLog, clients, creditLedger, organizations } from '../../schema';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { mcpClient, toolJson } from '../helpers/mcp';
import { newTenant, randomIp, type Tenant } from '../helpers/tenant';
import { agencyCallFor } from './confirm_helpers';

// The two-step confirm (agency-operator.md §3) and the credit ledger it charges through.

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

async function agencyTenant() {
  const t = await newTenant(env, { features: { agency_tools: true } });
  const key = await t.addKey({ name: 'assistant', kind: 'agency', scopes: [] });
  return { t, key };
}
const playbook = (t: Tenant, key: string, body: Record<string, unknown>) => t.call('PUT', `/v1/agency/clients/${t.client.id}/playbook`, { key, body });
const auditOf = (orgId: string) => env.services.db.select().from(auditLog).where(eq(auditLog.orgId, orgId));
const clientRow = async (id: string) => (await env.services.db.select().from(clients).where(eq(clients.id, id)))[0];

describe('two-step confirm', () => {
  it('previews without changing anything, then applies with the token: the change, the audit row and the token use together', async () => {
    const { t, key } = await agencyTenant();
    const first = await playbook(t, key, { instructions: 'Answer within a day.', rules: ['never discount'] });
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ preview: { current_version: 0, next_version: 1, current: null, changed_fields: ['instructions', 'rules'] }, credits: 0 });
    expect(first.json.confirm_token).toMatch(/^ct_/);
    expect(Date.parse(first.json.expires_at) - env.clock.now().getTime()).toBeGreaterThan(14 * 60_000);
    expect((await clientRow(t.client.id)).playbookVersion).toBe(0);
    expect(await auditOf(t.org.id)).toHaveLength(0);

    const done = await playbook(t, key, { instructions: 'Answer within a day.', rules: ['never discount'], confirm_token: first.json.confirm_token });
    expect(done.status).toBe(200);
    expect(done.json.playbook_version).toBe(1);
    expect(done.json.client.playbook).toMatchObject({ version: 1, instructions: 'Answer within a day.', rules: ['never discount'] });
    const audit = await auditOf(t.org.id);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor: 'key:assistant', action: 'playbook.updated', target: `client:${t.client.id}`, credits: 0 });

    const again = await playbook(t, key, { instructions: 'Answer within a day.', rules: ['never discount'], confirm_token: first.json.confirm_token });
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe('confirm_token_used');
  });

  it('binds the token to the key, the tool and the arguments; argument order does not matter', async () => {
    const { t, key } = await agencyTenant();
    const other = await t.addKey({ name: 'other assistant', kind: 'agency', scopes: [] });
    const p = await playbook(t, key, { instructions: 'Be brief.', tone: 'warm' });
    const token = p.json.confirm_token;
    const byOther = await playbook(t, other, { instructions: 'Be brief.', tone: 'warm', confirm_token: token });
    expect(byOther.status).toBe(400);
    expect(byOther.json.error.code).toBe('confirm_token_invalid');
    const otherArgs = await playbook(t, key, { instructions: 'Be briefer.', tone: 'warm', confirm_token: token });
    expect(otherArgs.json.error).toMatchObject({ code: 'confirm_token_invalid' });
    expect(otherArgs.json.error.message).toMatch(/other arguments/);
    const unknown = await playbook(t, key, { instructions: 'Be brief.', tone: 'warm', confirm_token: 'ct_made_up' });
    expect(unknown.json.error.code).toBe('confirm_token_invalid');
    // Another tool with this token: a tool of the test's own, through the same mechanism.
    const call = await agencyCallFor(env, key);
    const otherTool: TwoStepDef<Record<string, unknown>, unknown, unknown> = {
      tool: 'some_other_tool',
      preview: async () => ({ preview: {}, state: {}, credits: 0 }),
      apply: async () => ({ result: {}, audit: { target: null } }),
    };
    await expect(runTwoStep(call, otherTool, { instructions: 'Be brief.', tone: 'warm', confirm_token: token })).rejects.toMatchObject({ code: 'confirm_token_invalid' });
    // Same arguments in another order, through MCP: the token still fits (and each refusal above left it unused).
    const mcp = await mcpClient(env, key, { ip: randomIp() });
    const r = await mcp.callTool({ name: 'update_playbook', arguments: { tone: 'warm', confirm_token: token, instructions: 'Be brief.', client_id: t.client.id } });
    expect(toolJson(r).playbook_version).toBe(1);
    expect((await auditOf(t.org.id))[0].actor).toBe('mcp:assistant');
    await mcp.close();
  });

  it('expires after 15 minutes (410)', async () => {
    const { t, key } = await agencyTenant();
    const p = await playbook(t, key, { instructions: 'Be brief.' });
    env.clock.advance(15 * 60_000 + 1000);
    const late = await playbook(t, key, { instructions: 'Be brief.', confirm_token: p.json.confirm_token });
    expect(late.status).toBe(410);
    expect(late.json.error.code).toBe('confirm_token_expired');
    expect((await clientRow(t.client.id)).playbookVersion).toBe(0);
  });

  it('refuses a preview whose state changed with 409 preview_stale, carrying a fresh preview and token that work', async () => {
    const { t, key } = await agencyTenant();
    const mine = await playbook(t, key, { instructions: 'Mine.' });
    const theirs = await playbook(t, key, { instructions: 'Theirs.' });
    await playbook(t, key, { instructions: 'Theirs.', confirm_token: theirs.json.confirm_token });
    const stale = await playbook(t, key, { instructions: 'Mine.', confirm_token: mine.json.confirm_token });
    expect(stale.status).toBe(409);
    expect(stale.json.error.code).toBe('preview_stale');
    expect(stale.json.preview).toMatchObject({ current_version: 1, next_version: 2, current: { instructions: 'Theirs.' } });
    expect(stale.json.confirm_token).toMatch(/^ct_/);
    expect((await clientRow(t.client.id)).playbook?.instructions).toBe('Theirs.');
    const fresh = await playbook(t, key, { instructions: 'Mine.', confirm_token: stale.json.confirm_token });
    expect(fresh.json.playbook_version).toBe(2);
  });

  it('another organization cannot preview or confirm on a client that is not its own (404)', async () => {
    const { t } = await agencyTenant();
    const { t: other, key: otherKey } = await agencyTenant();
    const r = await other.call('PUT', `/v1/agency/clients/${t.client.id}/playbook`, { key: otherKey, body: { instructions: 'x' } });
    expect(r.status).toBe(404);
    expect(r.json.error.code).toBe('not_found');
  });
});

describe('a paid confirm', () => {
  const paid = (credits: number, onApply: () => void = () => {}): TwoStepDef<Record<string, unknown>, { n: number }, { ok: true }> => ({
    tool: 'paid_test_tool',
    preview: async () => ({ preview: { n: credits }, state: { fixed: true }, credits }),
    apply: async () => {
      onApply();
      return { result: { ok: true }, audit: { target: 'test' } };
    },
  });
  const balance = async (orgId: string) => (await env.services.db.select().from(organizations).where(eq(organizations.id, orgId)))[0].credits;

  it('charges the preview\'s credits in the confirm transaction, once, with a ledger row and the audit row', async () => {
    const { t, key } = await agencyTenant();
    const call = await agencyCallFor(env, key, 'mcp');
    const p = await runTwoStep(call, paid(7), { what: 'x' });
    if (p.confirmed) throw new Error('expected a preview');
    expect(p.answer.credits).toBe(7);
    expect(await balance(t.org.id)).toBe(1000);
    const done = await runTwoStep(call, paid(7), { what: 'x', confirm_token: p.answer.confirm_token! });
    expect(done).toEqual({ confirmed: true, result: { ok: true } });
    expect(await balance(t.org.id)).toBe(993);
    // Charges only (an opening balance may have its own top-up row).
    const ledger = (await env.services.db.select().from(creditLedger).where(eq(creditLedger.orgId, t.org.id))).filter((r) => r.amount < 0);
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({ amount: -7, balanceAfter: 993, reason: 'paid_test_tool' });
    expect((await auditOf(t.org.id))[0]).toMatchObject({ actor: 'mcp:assistant', credits: 7 });
  });

  it('refuses with 402 insufficient_credits and rolls everything back: no change, token unused, no audit, no ledger row', async () => {
    const { t, key } = await agencyTenant();
    await env.services.db.update(organizations).set({ credits: 5 }).where(eq(organizations.id, t.org.id));
    const call = await agencyCallFor(env, key);
    let applied = 0;
    const def = paid(6, () => applied++);
    const p = await runTwoStep(call, def, {});
    if (p.confirmed) throw new Error('expected a preview');
    await expect(runTwoStep(call, def, { confirm_token: p.answer.confirm_token! })).rejects.toMatchObject({ code: 'insufficient_credits', status: 402 });
    expect(applied).toBe(1); // it ran inside the transaction that was rolled back
    expect(await balance(t.org.id)).toBe(5);
    expect(await auditOf(t.org.id)).toHaveLength(0);
    const used = await env.services.db.execute(sql`select used_at from confirm_tokens where org_id = ${t.org.id}`);
    expect((used as unknown as { rows: { used_at: unknown }[] }).rows.every((r) => r.used_at === null)).toBe(true);
    // With enough credits the same token still works.
    await env.services.db.update(organizations).set({ credits: 6 }).where(eq(organizations.id, t.org.id));
    expect(await runTwoStep(call, def, { confirm_token: p.answer.confirm_token! })).toMatchObject({ confirmed: true });
    expect(await balance(t.org.id)).toBe(0);
  });

  it("also counts against the key's daily credit limit: no token past it, 429 when the room went between preview and confirm", async () => {
    const { t } = await agencyTenant();
    const small = await t.addKey({ name: 'small', kind: 'agency', scopes: [], daily_credit_limit: 10 });
    const call = await agencyCallFor(env, small);
    const over = await runTwoStep(call, paid(11), {});
    if (over.confirmed) throw new Error('expected a preview');
    expect(over.answer).toMatchObject({ confirm_token: null, blocked_by: 'daily_credit_limit_exceeded', credits: 11 });
    const p = await runTwoStep(call, paid(8), {});
    if (p.confirmed) throw new Error('expected a preview');
    expect(p.answer.confirm_token).toEqual(expect.any(String));
    const spend = await runTwoStep(call, paid(5), {});
    if (spend.confirmed) throw new Error('expected a preview');
    await runTwoStep(call, paid(5), { confirm_token: spend.answer.confirm_token! });
    await expect(runTwoStep(call, paid(8), { confirm_token: p.answer.confirm_token! })).rejects.toMatchObject({ code: 'daily_credit_limit_exceeded' });
    expect(await balance(t.org.id)).toBe(995);
  });

  it('never charges one reference twice', async () => {
    const { t } = await agencyTenant();
    const charge = () =>
      env.services.db.transaction((tx) => chargeCredits(tx, { orgId: t.org.id, key: null, reference: 'step:abc', amount: 3, reason: 'test', now: env.clock.now() }));
    expect(await charge()).toMatchObject({ charged: true, balance: 997 });
    expect(await charge()).toMatchObject({ charged: false, balance: 997 });
    expect(await balance(t.org.id)).toBe(997);
  });
});
