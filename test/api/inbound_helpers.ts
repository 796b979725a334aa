// Shared by the inbound tests: an inbound source of a tenant, and deliveries to it the way a sending tool makes them.
import { randomInt } from 'node:crypto';
import { inject } from 'vitest';
import type { TestEnv } from '../helpers/harness';
import { request, type Tenant } from '../helpers/tenant';
import { recordSecret } from '../helpers/secret_scan';

export type Source = { id: string; url: string; secret: string; provider: string };

export async function addSource(t: Tenant, provider = 'generic', name?: string): Promise<Source> {
  const r = await t.admin('POST', `/admin/v1/orgs/${t.org.id}/inbound-sources`, { provider, ...(name ? { name } : {}) });
  if (r.status !== 201) throw new Error(`inbound source: ${r.status} ${r.text}`);
  recordSecret(inject('logDir'), r.json.secret);
  return { id: r.json.source.id, url: r.json.source.url, secret: r.json.secret, provider };
}

/** Posts a payload to the source's URL; the secret goes in `x-inbound-secret` unless `auth` says otherwise. */
export function deliver(
  env: TestEnv,
  source: Source,
  payload: unknown,
  opts: { auth?: 'header' | 'bearer' | 'query' | 'none'; secret?: string; ip?: string; raw?: string } = {},
) {
  const secret = opts.secret ?? source.secret;
  const auth = opts.auth ?? 'header';
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (auth === 'header') headers['x-inbound-secret'] = secret;
  if (auth === 'bearer') headers.authorization = `Bearer ${secret}`;
  const path = `/v1/inbound/${source.id}${auth === 'query' ? `?token=${encodeURIComponent(secret)}` : ''}`;
  return request(env, 'POST', path, { key: null, headers, ...(opts.raw !== undefined ? { raw: opts.raw } : { body: payload }), ip: opts.ip ?? `10.9.${randomInt(256)}.${randomInt(1, 255)}` });
}

/** A reply in the generic format; `over` replaces any field. */
export const genericReply = (over: Record<string, unknown> = {}) => ({
  message_id: `<m${randomInt(1e12)}@mail.prospect.io>`,
  from_email: `p${randomInt(1e9)}@prospect.io`,
  from_name: 'Pat Prospect',
  to_email: 'sam@agency-mail.com',
  subject: 'Quick question about your pipeline',
  text: 'Sounds good — can we talk Tuesday at 2pm?',
  received_at: '2026-11-20T10:00:00Z',
  in_reply_to: '<c1@agency-mail.com>',
  campaign: { id: 'cmp-1', name: 'Q4 Outreach' },
  ...over,
});
