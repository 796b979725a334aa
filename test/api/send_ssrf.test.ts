// The http provider's URL under the outbound policy when private targets are not allowed (the production
// default): refused when configured, and refused again at send time (a row written earlier, or DNS that changed).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendingProviders } from '../../schema';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { newTenant } from '../helpers/tenant';
import { keyAt, trail } from './send_helpers';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv({ ALLOW_PRIVATE_WEBHOOK_URLS: 'false' });
});
afterAll(() => env.close());

describe('sending provider URL policy', () => {
  it('configuration refuses loopback, private, link-local, internal names and plain http', async () => {
    const t = await newTenant(env);
    for (const url of ['http://127.0.0.1:8080/send', 'https://127.0.0.1/send', 'https://10.1.2.3/send', 'https://169.254.169.254/latest', 'https://localhost/send', 'https://mail.internal/send', 'https://[::1]/send', 'http://example.com/send']) {
      const r = await t.admin('PUT', `/admin/v1/orgs/${t.org.id}/sending-provider`, { kind: 'http', url });
      expect(r.status, url).toBe(400);
      expect(r.json.error.code).toBe('validation_error');
      expect(r.json.error.message).toMatch(/^url: /);
    }
  });

  it('a send re-checks the URL: refused at send time is a provider failure (502), nothing sent, no cooldown', async () => {
    const t = await newTenant(env);
    await env.services.db.insert(sendingProviders).values({ orgId: t.org.id, kind: 'http', url: 'https://127.0.0.1:9/send', secretEnc: null });
    const key = await keyAt(t, 2);
    const { reply } = await t.reply();
    for (let i = 0; i < 2; i++) {
      const r = await t.call('POST', `/v1/replies/${reply.id}/send`, { key, body: { body: 'hello' } });
      expect(r.status).toBe(502); // the second is not 429 lead_recently_contacted: the first started no cooldown
      expect(r.json.error).toEqual({ code: 'provider_error', message: expect.stringContaining('provider URL refused') });
    }
    expect((await trail(t, reply.id)).map((d) => d.action)).toEqual(['send.provider_failed', 'send.provider_failed']);
  });
});
