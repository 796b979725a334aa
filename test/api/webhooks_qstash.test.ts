// The QStash path end to end: the real @upstash/qstash Client publishes our jobs to the local QStash emulator,
// which calls our own POST /jobs/run (served over real HTTP), where the real Receiver checks Upstash-Signature on
// the raw body; the jobs dispatch, deliver and retry webhooks to a local receiver.
import { createHash, createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { events } from '../../schema';
import { runHandler } from '../../lib/queue/run';
import { SWEEP_JOB } from '../../lib/webhooks/jobs';
import { jobHandlers } from '../../functions/jobs/handlers';
import type { TestEnv } from '../helpers/harness';
import { startReceiver, verifyHit, type Answer, type Receiver } from '../helpers/receiver';
import { newTenant, type Tenant } from '../helpers/tenant';
import { startQStashServiceEnv } from '../helpers/webhook_env';
import type { QStashEmulator } from '../infra/qstash_emulator';

let env: TestEnv;
let emu: QStashEmulator;
let base: string;
let service: Awaited<ReturnType<typeof startQStashServiceEnv>>;
const receivers: Receiver[] = [];

beforeAll(async () => {
  // Real seconds between webhook attempts: the emulator waits out QStash delays for real.
  service = await startQStashServiceEnv({ WEBHOOK_RETRY_DELAYS: '1,1,1' });
  ({ env, emu, base } = service);
});
afterEach(async () => {
  emu.failNextPublishes(0);
  await emu.drain();
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});
afterAll(() => service?.close());

/** A QStash-style signature (HS256 JWT over sha256 of the body), made here as QStash would make it. */
function qstashJwt(key: string, url: string, body: string) {
  const b64 = (v: string | Buffer) => Buffer.from(v).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  const head = b64(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const claims = b64(JSON.stringify({ iss: 'Upstash', sub: url, iat: now, nbf: now, exp: now + 300, jti: `jwt_${now}`, body: b64(createHash('sha256').update(body).digest()) }));
  return `${head}.${claims}.${createHmac('sha256', key).update(`${head}.${claims}`).digest('base64url')}`;
}

async function waitFor(check: () => boolean | Promise<boolean>, ms = 15_000) {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function endpoint(t: Tenant, answer: (n: number) => Answer = () => ({ status: 200 })) {
  const rx = await startReceiver(answer);
  receivers.push(rx);
  const r = await t.call('POST', '/v1/webhooks', { body: { name: 'n', url: rx.url, events: ['lead.replied'] } });
  return { rx, id: r.json.webhook.id as string, secret: r.json.secret as string };
}

const ingest = (t: Tenant, body = 'Sounds interesting.') => t.admin('POST', `/admin/v1/orgs/${t.org.id}/inbound-replies`, { campaign_id: t.campaign.id, from_email: 'q@prospect.com', body });

describe('webhooks through QStash', () => {
  it('runs dispatch and delivery as signed QStash calls to /jobs/run; every endpoint gets the same event id', async () => {
    const t = await newTenant(env);
    const a = await endpoint(t);
    const b = await endpoint(t);
    expect((await ingest(t)).status).toBe(201);
    await waitFor(() => a.rx.hits.length === 1 && b.rx.hits.length === 1);
    await emu.drain();

    const [ea, eb] = [verifyHit(a.rx.hits[0], a.secret), verifyHit(b.rx.hits[0], b.secret)];
    expect(ea.id).toBe(eb.id);
    const kinds = emu.published.map((m) => JSON.parse(m.body).kind);
    expect(kinds).toContain('webhook.dispatch');
    expect(kinds).toContain('webhook.deliver');
    expect(emu.published.every((m) => m.destination === `${base}/jobs/run`)).toBe(true);
    // Every call QStash made to /jobs/run was accepted: the real Receiver verified each signature.
    expect(emu.deliveries.length).toBeGreaterThan(0);
    expect(emu.deliveries.every((d) => d.status === 200)).toBe(true);
  });

  it('schedules retries as delayed QStash messages with the stored body unchanged', async () => {
    const t = await newTenant(env);
    const a = await endpoint(t, (n) => ({ status: n <= 2 ? 500 : 200 }));
    await ingest(t);
    await waitFor(() => a.rx.hits.length === 3);
    const bodies = a.rx.hits.map((h) => h.body);
    expect(new Set(bodies).size).toBe(1);
    expect(new Set(a.rx.hits.map((h) => verifyHit(h, a.secret).id)).size).toBe(1);
    // The waits came from WEBHOOK_RETRY_DELAYS (1 s), kept by QStash, not from QStash's own retries.
    expect(a.rx.hits[1].at - a.rx.hits[0].at).toBeGreaterThanOrEqual(900);
    await waitFor(async () => (await t.call('GET', `/v1/webhooks/${a.id}`)).json.webhook.failure_count === 0);
  });

  it('loses nothing when QStash refuses publishes: the sweep dispatches and delivers what is left', async () => {
    const t = await newTenant(env);
    const a = await endpoint(t);
    emu.failNextPublishes(1_000);
    await ingest(t, 'published into a QStash outage');
    // The trigger failed: the event is still pending, and nothing reached the endpoint.
    await new Promise((r) => setTimeout(r, 500));
    const pending = await env.services.db.select().from(events).where(eq(events.orgId, t.org.id));
    expect(pending.map((e) => e.dispatchedAt)).toEqual([null]);

    // The cron sweep (still unable to publish) dispatches, then sends what became overdue itself.
    await runHandler(jobHandlers, SWEEP_JOB, {}, { services: env.services, attempt: 1 });
    expect(a.rx.hits).toHaveLength(0);
    env.clock.advance(61_000);
    await runHandler(jobHandlers, SWEEP_JOB, {}, { services: env.services, attempt: 1 });
    expect(a.rx.hits).toHaveLength(1);
    expect(verifyHit(a.rx.hits[0], a.secret).data.reply_text).toBe('published into a QStash outage');
  });
});

describe('POST /jobs/run', () => {
  let capture: Receiver;
  beforeAll(async () => {
    capture = await startReceiver();
  });
  afterAll(() => capture.close());

  /** A request QStash really signed, for another destination (the capture server). */
  async function signedElsewhere(body: object) {
    const { Client } = await import('@upstash/qstash');
    const client = new Client({ baseUrl: emu.url, token: emu.token, devMode: false, enableTelemetry: false });
    await client.publishJSON({ url: capture.url, body });
    await waitFor(() => capture.hits.length > 0);
    return capture.hits.pop()!;
  }

  const run = (body: string, headers: Record<string, string> = {}) =>
    fetch(`${base}/jobs/run`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

  it('refuses a missing, forged or misdirected Upstash-Signature with 401 and runs nothing', async () => {
    const t = await newTenant(env);
    await t.reply({ body: 'must stay pending' });
    const body = JSON.stringify({ kind: 'webhook.dispatch', payload: {} });
    const none = await run(body);
    expect(none.status).toBe(401);
    expect((await none.json()).error.code).toBe('unauthorized');
    expect((await run(body, { 'upstash-signature': 'eyJhbGciOiJIUzI1NiJ9.e30.bad' })).status).toBe(401);
    // Signed by QStash, but for another URL: the JWT's subject does not match /jobs/run.
    const elsewhere = await signedElsewhere({ kind: 'webhook.dispatch', payload: {} });
    expect((await run(elsewhere.body, { 'upstash-signature': String(elsewhere.headers['upstash-signature']) })).status).toBe(401);
    const pending = await env.services.db.select().from(events).where(eq(events.orgId, t.org.id));
    expect(pending.map((e) => e.dispatchedAt)).toEqual([null]);
  });

  it('accepts a genuine signature and refuses the same signature over an altered body', async () => {
    const t = await newTenant(env);
    await t.reply({ body: 'dispatched only by the genuine call' });
    const genuine = JSON.stringify({ kind: 'webhook.dispatch', payload: {} });
    const signature = qstashJwt(emu.currentSigningKey, `${base}/jobs/run`, genuine);
    const tampered = JSON.stringify({ kind: 'webhook.sweep', payload: {} });
    expect((await run(tampered, { 'upstash-signature': signature })).status).toBe(401);
    const ok = await run(genuine, { 'upstash-signature': signature });
    expect(ok.status).toBe(200);
    const dispatched = await env.services.db.select().from(events).where(eq(events.orgId, t.org.id));
    expect(dispatched[0].dispatchedAt).not.toBeNull();
  });
});
