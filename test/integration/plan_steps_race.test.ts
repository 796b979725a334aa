// Two consumers racing for the same due steps (a duplicated QStash delivery, the embedded job and the sweep's job,
// two runners): the lease is one conditional UPDATE, so each step runs once. On the integration tier the two
// consumers are separate services with their own connection pools on real PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeStep, stepRow } from '../../lib/plans/execute';
import { scheduleSteps } from '../../lib/plans/schedule';
import { startTestEnv, TIER, type TestEnv } from '../helpers/harness';
import { newTenant } from '../helpers/tenant';
import { registerTestKinds, runsOf, seedPlan } from '../plans/scheduler_helpers';

let a: TestEnv;
let b: TestEnv;
beforeAll(async () => {
  registerTestKinds();
  a = await startTestEnv();
  // Embedded: one PGlite per file, so both consumers share it (statements still interleave on one connection).
  b = TIER === 'integration' ? await startTestEnv() : a;
});
afterAll(async () => {
  if (b !== a) await b.close();
  await a.close();
});

describe(`two consumers racing for one step (${TIER})`, () => {
  it('run each step once: one consumer gets ran, the other skipped', async () => {
    const t = await newTenant(a);
    const STEPS = 25;
    const p = await seedPlan(a.services.db, t.org.id, Array.from({ length: STEPS }, () => ({ kind: 'test.count' })));
    await a.services.db.transaction((tx) => scheduleSteps(tx, a.services, p.stepIds.map((id) => ({ id, dueAt: new Date(Date.now() - 1_000) }))));
    const outcomes = await Promise.all(p.stepIds.flatMap((id) => [executeStep(a.services, id), executeStep(b.services, id), executeStep(b.services, id)]));
    for (const [i, id] of p.stepIds.entries()) {
      expect(outcomes.slice(i * 3, i * 3 + 3).sort()).toEqual(['ran', 'skipped', 'skipped']);
      expect(runsOf(id)).toHaveLength(1);
      expect(await stepRow(a.services.db, id)).toMatchObject({ status: 'done', attempts: 1 });
    }
  });
});
