// The two-step confirm and the credit ledger under real concurrency: the Neon driver (a pool of connections)
// against real PostgreSQL. Of N concurrent confirms of one token exactly one changes anything (the token row is
// locked first; the others then find it used), and N concurrent charges of one reference charge once (the ledger's
// unique reference). PGlite has one connection and serialises everything, so these run on the integration tier.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTwoStep, type TwoStepDef } from '../../lib/agency/confirm';
import { chargeCredits } from '../../lib/credits/ledger';
import { auditLog, organizations, playbookVersions } from '../../schema';
import { agencyCallFor } from '../agency/confirm_helpers';
import { startTestEnv, TIER, type TestEnv } from '../helpers/harness';
import { newTenant, randomIp } from '../helpers/tenant';

let env: TestEnv;
beforeAll(async () => {
  if (TIER !== 'integration') return;
  env = await startTestEnv();
});
afterAll(async () => {
  await env?.close();
});

const tally = (codes: string[]) => codes.reduce<Record<string, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});

describe.skipIf(TIER !== 'integration')('confirm under concurrency (real PostgreSQL)', () => {
  it('10 concurrent confirms of one token: exactly one applies, nine are confirm_token_used', async () => {
    const t = await newTenant(env, { features: { agency_tools: true } });
    const key = await t.addKey({ name: 'assistant', kind: 'agency', scopes: [], rate_limit_per_minute: 1000 });
    const body = { instructions: 'Answer within a day.' };
    const preview = await t.call('PUT', `/v1/agency/clients/${t.client.id}/playbook`, { key, body });
    const token = preview.json.confirm_token;
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => t.call('PUT', `/v1/agency/clients/${t.client.id}/playbook`, { key, body: { ...body, confirm_token: token }, ip: randomIp() })),
    );
    expect(tally(answers.map((a) => (a.status === 200 ? 'applied' : a.json.error.code)))).toEqual({ applied: 1, confirm_token_used: 9 });
    expect(await env.services.db.select().from(playbookVersions).where(eq(playbookVersions.clientId, t.client.id))).toHaveLength(1);
    expect(await env.services.db.select().from(auditLog).where(eq(auditLog.orgId, t.org.id))).toHaveLength(1);
  });

  it('10 concurrent confirms of a paid preview charge once', async () => {
    const t = await newTenant(env, { features: { agency_tools: true } });
    const key = await t.addKey({ name: 'assistant', kind: 'agency', scopes: [] });
    const def: TwoStepDef<Record<string, unknown>, unknown, { ok: true }> = {
      tool: 'paid_test_tool',
      preview: async () => ({ preview: {}, state: {}, credits: 4 }),
      apply: async () => ({ result: { ok: true }, audit: { target: null } }),
    };
    const call = await agencyCallFor(env, key);
    const p = await runTwoStep(call, def, {});
    if (p.confirmed) throw new Error('expected a preview');
    const outcomes = await Promise.allSettled(Array.from({ length: 10 }, () => runTwoStep(call, def, { confirm_token: p.answer.confirm_token! })));
    expect(tally(outcomes.map((o) => (o.status === 'fulfilled' ? 'applied' : (o.reason as { code: string }).code)))).toEqual({ applied: 1, confirm_token_used: 9 });
    const [org] = await env.services.db.select().from(organizations).where(eq(organizations.id, t.org.id));
    expect(org.credits).toBe(996);
  });

  it('10 concurrent charges of one reference charge once; 10 of different references all charge, never below 0', async () => {
    const t = await newTenant(env, { features: { agency_tools: true } });
    const charge = (reference: string, amount: number) =>
      env.services.db.transaction((tx) => chargeCredits(tx, { orgId: t.org.id, key: null, reference, amount, reason: 'test', now: new Date() }));
    const same = await Promise.all(Array.from({ length: 10 }, () => charge('step:same', 10)));
    expect(same.filter((r) => r.charged)).toHaveLength(1);
    await env.services.db.update(organizations).set({ credits: 95 }).where(eq(organizations.id, t.org.id));
    const many = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => charge(`step:${i}`, 10)));
    expect(many.filter((r) => r.status === 'fulfilled')).toHaveLength(9);
    expect(many.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason.code)).toEqual(['insufficient_credits']);
    const rows = await env.services.db.execute(sql`select credits from organizations where id = ${t.org.id}`);
    expect((rows as unknown as { rows: { credits: number }[] }).rows[0].credits).toBe(5);
  });
});
