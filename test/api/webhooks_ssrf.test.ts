// The outbound URL policy with ALLOW_PRIVATE_WEBHOOK_URLS unset: refused at creation, and checked again at every
// delivery, because a name that resolved to a public address yesterday may resolve to a private one today.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookAttempts } from '../../schema';
import type { TestEnv } from '../helpers/harness';
import { newTenant } from '../helpers/tenant';
import { drain, startWebhookEnv } from '../helpers/webhook_env';

let env: TestEnv;
const dns = new Map<string, string[]>();
beforeAll(async () => {
  env = await startWebhookEnv({ ALLOW_PRIVATE_WEBHOOK_URLS: 'false' });
  // A fake resolver: the test decides what each name resolves to (no real DNS).
  env.services.resolveHost = async (host) => {
    const answer = dns.get(host);
    if (!answer) throw new Error(`ENOTFOUND ${host}`);
    return answer;
  };
});
afterAll(() => env.close());

const create = (t: Awaited<ReturnType<typeof newTenant>>, url: string) => t.call('POST', '/v1/webhooks', { body: { name: 'n', url, events: ['lead.replied'] } });

describe('SSRF policy for webhook URLs', () => {
  it('refuses loopback, private, link-local, CGNAT, metadata, internal names, plain http and other schemes at creation', async () => {
    const t = await newTenant(env);
    dns.set('intranet.example.com', ['10.1.2.3']);
    dns.set('sneaky.example.com', ['93.184.216.34', '127.0.0.1']);
    dns.set('v6.example.com', ['fd00::1']);
    const refused = [
      'https://127.0.0.1/hook',
      'https://10.0.0.8/hook',
      'https://192.168.1.1/hook',
      'https://172.16.5.4/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://100.64.0.1/hook',
      'https://[::1]/hook',
      'https://2130706433/hook', // 127.0.0.1 in decimal
      'https://localhost/hook',
      'https://metadata.google.internal/computeMetadata',
      'https://intranet.example.com/hook',
      'https://sneaky.example.com/hook',
      'https://v6.example.com/hook',
      'https://unresolvable.example.com/hook',
      'http://hooks.example.com/hook',
      'file:///etc/passwd',
    ];
    dns.set('hooks.example.com', ['93.184.216.34']);
    for (const url of refused) {
      const r = await create(t, url);
      expect(r.status, url).toBe(400);
      expect(r.json.error.code).toBe('validation_error');
      expect(r.json.error.message).toMatch(/^url: /);
    }
    expect((await t.call('GET', '/v1/webhooks')).json.webhooks).toEqual([]);
    expect((await create(t, 'https://hooks.example.com/hook')).status).toBe(201);
  });

  it('checks again at delivery: a name now resolving to a private address is a failed attempt without a request', async () => {
    const t = await newTenant(env);
    dns.set('rebind.example.com', ['93.184.216.34']);
    const created = await create(t, 'https://rebind.example.com/hook');
    expect(created.status).toBe(201);
    dns.set('rebind.example.com', ['169.254.169.254']);

    await t.reply();
    await drain(env);
    const attempts = await env.services.db.select().from(webhookAttempts).where(eq(webhookAttempts.webhookId, created.json.webhook.id));
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ ok: false, httpStatus: null, attempt: 1 });
    expect(attempts[0].error).toMatch(/^refused: .*169\.254\.169\.254/);
    // It counts like any failed attempt, and is retried on schedule (the name may be fixed by then).
    const hook = (await t.call('GET', `/v1/webhooks/${created.json.webhook.id}`)).json.webhook;
    expect(hook).toMatchObject({ failure_count: 1, is_active: true, last_error: { status: null, error: expect.stringMatching(/^refused/) } });
    const log = (await t.call('GET', `/v1/webhooks/${created.json.webhook.id}/deliveries`)).json.deliveries;
    expect(log[0]).toMatchObject({ status: 'failed', delivery_status: 'pending', next_attempt_at: expect.any(String) });

    // The manual routes go through the same check.
    const ping = await t.call('POST', `/v1/webhooks/${created.json.webhook.id}/test`);
    expect(ping.json).toMatchObject({ delivered: false, http_status: null, error: expect.stringMatching(/^refused/) });
  });
});
