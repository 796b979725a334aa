// Follow-ups on the production queue path: a delayed QStash message (the real Client, through the local QStash
// emulator) calls our POST /jobs/run at due time, where the real Receiver checks the signature and the job sends
// the follow-up. A publish that fails is caught up by the follow-up sweep (the jobs Worker's cron in production).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobHandlers } from '../../functions/jobs/handlers';
import { FOLLOWUP_SEND_JOB, FOLLOWUP_SWEEP_JOB } from '../../lib/followups/jobs';
import { runHandler } from '../../lib/queue/run';
import type { TestEnv } from '../helpers/harness';
import { newTenant } from '../helpers/tenant';
import { startQStashServiceEnv } from '../helpers/webhook_env';
import type { QStashEmulator } from '../infra/qstash_emulator';
import { outbox } from './send_helpers';
import { byId, plan } from './followups_helpers';

let env: TestEnv;
let emu: QStashEmulator;
let service: Awaited<ReturnType<typeof startQStashServiceEnv>>;

beforeAll(async () => {
  service = await startQStashServiceEnv();
  ({ env, emu } = service);
});
afterAll(() => service?.close());

async function waitFor(check: () => Promise<boolean>, ms = 15_000) {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('follow-ups through QStash', () => {
  it('a delayed message runs the follow-up at its due time through /jobs/run', async () => {
    const t = await newTenant(env);
    const { reply } = await t.reply();
    const f = await plan(t, reply.id, { now: env.clock.now(), dueInMs: 1_500, body: 'Checking in as promised.' });
    const published = emu.published.filter((m) => JSON.parse(m.body).payload?.followup_id === f.id);
    expect(published.map((m) => JSON.parse(m.body).kind)).toEqual([FOLLOWUP_SEND_JOB]);
    expect((await byId(t, f.id)).status).toBe('planned');
    await waitFor(async () => (await byId(t, f.id)).status === 'sent');
    expect((await outbox(t, reply.id)).map((m) => m.body)).toEqual(['Checking in as promised.']);
    await emu.drain();
    expect(emu.deliveries.filter((d) => d.status !== 200)).toEqual([]);
  });

  it('a failed publish loses nothing: the sweep sends the follow-up once it is overdue', async () => {
    const t = await newTenant(env);
    const { reply } = await t.reply();
    emu.failNextPublishes(1_000);
    const f = await plan(t, reply.id, { now: env.clock.now(), dueInMs: 500 });
    emu.failNextPublishes(0);
    await new Promise((r) => setTimeout(r, 1_000));
    expect((await byId(t, f.id)).status).toBe('planned');
    await runHandler(jobHandlers, FOLLOWUP_SWEEP_JOB, {}, { services: env.services, attempt: 1 });
    expect((await byId(t, f.id)).status).toBe('planned'); // not overdue by the sweep's grace yet: its job may still come
    env.clock.advance(61_000);
    await runHandler(jobHandlers, FOLLOWUP_SWEEP_JOB, {}, { services: env.services, attempt: 1 });
    expect((await byId(t, f.id)).status).toBe('sent');
    expect(await outbox(t, reply.id)).toHaveLength(1);
  });
});
