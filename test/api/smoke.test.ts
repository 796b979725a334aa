import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { newTenant } from '../helpers/tenant';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

describe('smoke', () => {
  it('serves healthz and lists leads', async () => {
    const t = await newTenant(env);
    await t.reply();
    const h = await t.call('GET', '/healthz', { key: null });
    expect(h.json).toEqual({ ok: true });
    const r = await t.call('GET', '/v1/leads');
    expect(r.status).toBe(200);
    expect(r.json.leads).toHaveLength(1);
    expect(r.json.total_count).toBe(1);
  });
});
