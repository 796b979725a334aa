// Formula runs under concurrency, on real PostgreSQL in the integration tier (PGlite, one connection, serialises
// the same calls in the embedded tier): concurrent confirms of one token start one run; concurrent rounds of one
// run (a retried job, a second delivery, continue: true) write and charge each cell once; and rounds racing for
// the last credits never take the balance below zero.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRound } from '../../lib/formulas/run_round';
import { enrichRuns } from '../../schema';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { addLeads, agencyTenant, balance, drain, itemsOf, ledgerOf, leadsOf, liveRecipe, runRow } from '../formulas/run_helpers';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

const QUESTION = { type: 'question', column_key: 'sells_software', question: 'Does {company} sell software?', output_type: 'boolean' };

describe('formula runs under concurrency', () => {
  it('of 6 concurrent confirms of one token exactly one starts a run', async () => {
    const a = await agencyTenant(env, { credits: 100 });
    await addLeads(env, a.t, Array.from({ length: 30 }, (_, i) => ({ company: `Co ${i}` })));
    const recipe = await liveRecipe(env, a.t, [QUESTION]);
    const path = `/v1/agency/clients/${a.t.client.id}/recipes/${recipe.id}/run`;
    const p = await a.rest('POST', path, {});
    const answers = await Promise.all(Array.from({ length: 6 }, () => a.rest('POST', path, { confirm_token: p.json.confirm_token })));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    expect(answers.filter((r) => r.status !== 200).every((r) => r.json.error.code === 'confirm_token_used')).toBe(true);
    const runs = await env.services.db.select().from(enrichRuns).where(eq(enrichRuns.orgId, a.t.org.id));
    expect(runs).toHaveLength(1);
    await drain(env);
    expect(await runRow(env, runs[0].id)).toMatchObject({ status: 'done', written: 30, credits: 30 });
    expect(await balance(env, a.t)).toBe(70);
  });

  it('8 concurrent rounds of one run (job retries, continue) write and charge every cell exactly once', async () => {
    const a = await agencyTenant(env, { credits: 1000 });
    await addLeads(env, a.t, Array.from({ length: 240 }, (_, i) => ({ company: i % 3 ? `Soft ${i} Software` : `Bakery ${i}` })));
    const recipe = await liveRecipe(env, a.t, [QUESTION]);
    const path = `/v1/agency/clients/${a.t.client.id}/recipes/${recipe.id}/run`;
    const p = await a.rest('POST', path, { confirm_large: true });
    const c = await a.rest('POST', path, { confirm_large: true, confirm_token: p.json.confirm_token });
    const runId = c.json.run.id;
    for (let wave = 0; wave < 3; wave++) {
      await Promise.all(Array.from({ length: 8 }, () => runRound(env.services, runId, { actor: 'system', chain: false })));
    }
    await drain(env);
    const run = await runRow(env, runId);
    expect(run).toMatchObject({ status: 'done', processed: 240, written: 240, credits: 240 });
    const ledger = await ledgerOf(env, a.t);
    expect(ledger).toHaveLength(240);
    expect(new Set(ledger.map((l) => l.reference)).size).toBe(240);
    expect(await balance(env, a.t)).toBe(760);
    expect((await itemsOf(env, runId)).every((i) => i.status === 'written' && i.credits === 1)).toBe(true);
    expect((await leadsOf(env, a.t)).every((l) => typeof l.custom.sells_software === 'boolean')).toBe(true);
  });

  it('rounds racing for the last credits never overdraw: the run pauses with exactly the balance spent', async () => {
    const a = await agencyTenant(env, { credits: 7 });
    await addLeads(env, a.t, Array.from({ length: 40 }, (_, i) => ({ company: `Co ${i}` })));
    const recipe = await liveRecipe(env, a.t, [QUESTION]);
    const path = `/v1/agency/clients/${a.t.client.id}/recipes/${recipe.id}/run`;
    const p = await a.rest('POST', path, {});
    const c = await a.rest('POST', path, { confirm_token: p.json.confirm_token });
    await Promise.all([
      ...Array.from({ length: 6 }, () => runRound(env.services, c.json.run.id, { actor: 'system', chain: false })),
      a.rest('POST', `/v1/agency/clients/${a.t.client.id}/runs/${c.json.run.id}`, { continue: true }),
    ]);
    await drain(env);
    expect(await balance(env, a.t)).toBe(0);
    expect(await runRow(env, c.json.run.id)).toMatchObject({ status: 'waiting_continue', written: 7, credits: 7 });
    expect(await ledgerOf(env, a.t)).toHaveLength(7);
  });
});
