// The production finder (lib/ports/finder/hunter.ts) against a local fake of Hunter's API (test/infra/fake_hunter.ts):
// the documented requests (path, api_key, name parameters), the mapping of its answers onto the port (found, not
// found, verifier statuses, 403/429 rate limits, 5xx, timeouts, 202/222/451), and no key in any detail. Then the
// whole waterfall with EMAIL_FINDER=hunter: one round through the service writes the address Hunter found.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHunterFinder, verifyStatusOf } from '../../lib/ports/finder/hunter';
import { finderCalls, poolLeads } from '../../schema';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { newTenant } from '../helpers/tenant';
import { startFakeHunter, type FakeHunter } from '../infra/fake_hunter';

const KEY = 'hunter-test-key-5f1b';
let fake: FakeHunter;
beforeAll(async () => {
  fake = await startFakeHunter({ apiKey: KEY });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const finder = (o: { key?: string; timeoutMs?: number } = {}) => createHunterFinder({ apiKey: o.key ?? KEY, baseUrl: `${fake.url}/v2`, timeoutMs: o.timeoutMs });
const ada = { first_name: 'Ada', last_name: 'Lovelace', full_name: null, domain: 'engine.io' };

describe('Hunter as the email finder', () => {
  it('asks GET /v2/email-finder with the documented parameters and maps a found address', async () => {
    fake.addPerson('engine.io', 'Ada', 'Lovelace', 'Ada@Engine.io');
    const [hunter] = finder().providers;
    const r = await hunter.find(ada);
    expect(r).toMatchObject({ outcome: 'found', email: 'ada@engine.io' });
    expect(r.cost_micros).toBeGreaterThan(0);
    expect(fake.requests[0]).toMatchObject({ method: 'GET', path: '/v2/email-finder', query: { domain: 'engine.io', first_name: 'Ada', last_name: 'Lovelace', api_key: KEY } });
  });

  it('sends full_name when only that is known; no address is not_found and costs nothing', async () => {
    const r = await finder().providers[0].find({ first_name: null, last_name: null, full_name: 'Grace Hopper', domain: 'navy.mil' });
    expect(r).toMatchObject({ outcome: 'not_found', email: null, cost_micros: 0 });
    expect(fake.requests[0].query).toMatchObject({ full_name: 'Grace Hopper', domain: 'navy.mil' });
    expect(fake.requests[0].query.first_name).toBeUndefined();
  });

  it('maps the verifier statuses: valid, accept_all/webmail/unknown → risky, invalid/disposable → invalid', async () => {
    const v = finder().verifier;
    const cases: Array<[string, string]> = [['valid', 'valid'], ['accept_all', 'risky'], ['webmail', 'risky'], ['unknown', 'risky'], ['invalid', 'invalid'], ['disposable', 'invalid']];
    for (const [verdict, expected] of cases) {
      const email = `${verdict}@verify.io`;
      fake.addPerson('verify.io', verdict, 'x', email, verdict);
      expect(await v.verify(email), verdict).toMatchObject({ outcome: 'verified', status: expected });
    }
    expect(fake.requests.every((r) => r.path === '/v2/email-verifier' && r.query.api_key === KEY)).toBe(true);
    // The deprecated `result` still reads when `status` is absent.
    expect(verifyStatusOf({ result: 'undeliverable' })).toBe('invalid');
    expect(verifyStatusOf({ status: 'something-new' })).toBeNull();
  });

  it('429 (usage limit) and 403 (rate limit) are rate_limited with Retry-After; 5xx is an error; never the key in a detail', async () => {
    const [hunter] = finder().providers;
    fake.setFailure({ status: 429, retryAfterSec: 20 }, 1);
    expect(await hunter.find(ada)).toMatchObject({ outcome: 'rate_limited', retry_after_sec: 20, email: null, cost_micros: 0 });
    fake.answerWith('engine.io', 403);
    expect(await hunter.find(ada)).toMatchObject({ outcome: 'rate_limited', email: null });
    fake.reset();
    fake.setFailure({ status: 503 });
    const failed = await hunter.find(ada);
    expect(failed).toMatchObject({ outcome: 'error', email: null });
    expect(failed.detail).toContain('503');
    fake.setFailure(null);
    const wrongKey = await finder({ key: 'not-the-key' }).providers[0].find(ada);
    expect(wrongKey.outcome).toBe('error');
    expect(wrongKey.detail).toContain('401');
    for (const r of [failed, wrongKey]) expect(r.detail).not.toContain(KEY);
  });

  it('a slow answer times out as an error; 451 is not_found; a verification still running (202) or failed (222) is an error', async () => {
    fake.setFailure({ slowMs: 1_000 });
    expect(await finder({ timeoutMs: 100 }).providers[0].find(ada)).toMatchObject({ outcome: 'error', email: null });
    fake.setFailure(null);
    fake.answerWith('engine.io', 451);
    expect((await finder().providers[0].find(ada)).outcome).toBe('not_found');
    fake.answerWith('pending@engine.io', 202);
    fake.answerWith('failed@engine.io', 222);
    expect(await finder().verifier.verify('pending@engine.io')).toMatchObject({ outcome: 'error', status: null });
    expect(await finder().verifier.verify('failed@engine.io')).toMatchObject({ outcome: 'error', status: null });
  });
});

describe('the waterfall with EMAIL_FINDER=hunter', () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await startTestEnv({ EMAIL_FINDER: 'hunter', HUNTER_API_KEY: KEY, HUNTER_API_URL: `${fake.url}/v2` });
  });
  afterAll(() => env?.close());

  it('one round writes the address Hunter found and verified, logs the calls unsimulated, charges 1 credit', async () => {
    const t = await newTenant(env, { features: { agency_tools: true, studio: true } });
    const key = await t.addKey({ name: 'assistant', kind: 'agency', scopes: [] });
    const [lead] = await env.services.db
      .insert(poolLeads)
      .values({ orgId: t.org.id, clientId: t.client.id, firstName: 'Ada', lastName: 'Lovelace', domain: 'engine.io', status: 'waiting_for_email', personKey: 'ada lovelace|engine.io' })
      .returning();
    fake.addPerson('engine.io', 'Ada', 'Lovelace', 'ada@engine.io', 'accept_all');
    const path = `/v1/agency/clients/${t.client.id}/waterfall/run`;
    const preview = await t.call('POST', path, { key, body: {} });
    expect(preview.status, preview.text).toBe(200);
    expect(preview.json.preview).toMatchObject({ providers: ['hunter'], simulated: false });
    const round = await t.call('POST', path, { key, body: { confirm_token: preview.json.confirm_token } });
    expect(round.status, round.text).toBe(200);
    expect(round.json.round.leads).toEqual([{ lead_id: lead.id, email: 'ada@engine.io', email_status: 'risky', provider: 'hunter', outcome: 'found' }]);
    expect(round.json.run).toMatchObject({ status: 'done', found: 1, credits: 1 });
    const calls = await env.services.db.select().from(finderCalls).where(eq(finderCalls.orgId, t.org.id));
    expect(calls.map((c) => [c.provider, c.operation, c.simulated])).toEqual(
      expect.arrayContaining([
        ['hunter', 'find', false],
        ['hunter', 'verify', false],
      ]),
    );
    // Not simulated: the admin sim table is not there.
    const sim = await t.admin('GET', `/admin/v1/orgs/${t.org.id}/sim/finder_calls`);
    expect(sim.status).toBe(404);
    expect(sim.json.error.message).toContain('EMAIL_FINDER=hunter');
  });
});
