// Plan steps on the production queue path: the real @upstash/qstash Client publishes a delayed message with a
// deduplication id (through the local QStash emulator), QStash calls our POST /jobs/run at the due time, the real
// Receiver checks the signature, and the step runs once. Publishing the same schedule again is deduplicated; a
// publish lost after the approval's commit, and a step beyond QStash's maximum delay, are published by the sweep.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobHandlers } from '../../functions/jobs/handlers';
import { stepRow } from '../../lib/plans/execute';
import { PLAN_SWEEP_JOB } from '../../lib/plans/jobs';
import { publishScheduledSteps, QSTASH_MAX_DELAY_MS, scheduleSteps } from '../../lib/plans/schedule';
import type { TestEnv } from '../helpers/harness';
import { newTenant } from '../helpers/tenant';
import { startQStashServiceEnv } from '../helpers/webhook_env';
import type { QStashEmulator } from '../infra/qstash_emulator';
import { registerTestKinds, runsOf, seedPlan } from './scheduler_helpers';

let env: TestEnv;
let emu: QStashEmulator;
let service: Awaited<ReturnType<typeof startQStashServiceEnv>>;
beforeAll(async () => {
  registerTestKinds();
  service = await startQStashServiceEnv();
  ({ env, emu } = service);
});
afterAll(() => service?.close());

async function waitFor(check: () => Promise<boolean>, ms = 20_000) {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

const messagesFor = (stepId: string) => emu.published.filter((m) => JSON.parse(m.body).payload?.step_id === stepId);
const sweep = () => jobHandlers[PLAN_SWEEP_JOB]({}, { services: env.services, attempt: 1 });

async function approved(dueInMs: number) {
  const t = await newTenant(env);
  const p = await seedPlan(env.services.db, t.org.id, [{ kind: 'test.count' }, { kind: 'test.count', day: 30 }]);
  const dueAt = new Date(env.clock.now().getTime() + dueInMs);
  const steps = [{ id: p.stepIds[0], dueAt }];
  await env.services.db.transaction((tx) => scheduleSteps(tx, env.services, steps));
  return { p, steps, id: p.stepIds[0] };
}

describe('plan steps through QStash', () => {
  it('a delayed message with a deduplication id runs the step at its due time, once', async () => {
    expect(env.services.queue.kind).toBe('qstash');
    const { steps, id } = await approved(2_000);
    expect(messagesFor(id)).toHaveLength(0); // nothing is published inside the approval's transaction
    await publishScheduledSteps(env.services, steps);
    await publishScheduledSteps(env.services, steps); // a repeated publish of the same schedule
    await sweep(); // the sweep republishes steps due in the next minutes: deduplicated too
    const [msg, ...more] = messagesFor(id);
    expect(more).toEqual([]);
    expect(msg.notBefore - Date.now()).toBeGreaterThan(0); // delayed, not delivered at once
    expect((await stepRow(env.services.db, id)).status).toBe('scheduled');
    await waitFor(async () => (await stepRow(env.services.db, id)).status === 'done');
    await emu.drain();
    expect(emu.deliveries.filter((d) => d.messageId === msg.messageId).map((d) => d.status)).toEqual([200]);
    expect(runsOf(id)).toHaveLength(1);
  });

  it('a publish lost after the commit is published by the sweep', async () => {
    const { steps, id } = await approved(500);
    emu.failNextPublishes(1_000);
    await publishScheduledSteps(env.services, steps); // logs and leaves it to the sweep
    emu.failNextPublishes(0);
    expect(messagesFor(id)).toHaveLength(0);
    await sweep();
    expect(messagesFor(id)).toHaveLength(1);
    await waitFor(async () => (await stepRow(env.services.db, id)).status === 'done');
    expect(runsOf(id)).toHaveLength(1);
  });

  it('a step beyond QStash’s maximum delay is published by the sweep when it comes near', async () => {
    const { steps, id } = await approved(QSTASH_MAX_DELAY_MS + 86_400_000);
    await publishScheduledSteps(env.services, steps);
    await sweep();
    expect(messagesFor(id)).toHaveLength(0);
    env.clock.advance(QSTASH_MAX_DELAY_MS + 86_400_000 - 1_000); // a second before it is due
    await sweep();
    expect(messagesFor(id)).toHaveLength(1);
    await waitFor(async () => (await stepRow(env.services.db, id)).status === 'done');
    expect(runsOf(id)).toHaveLength(1);
  });
});
