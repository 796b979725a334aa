// Shared by the bridge tests: a tenant with the Studio module, a hook of its client, and a call of the bridge.
import { randomInt } from 'node:crypto';
import { inject } from 'vitest';
import type { TestEnv } from '../helpers/harness';
import { recordSecret } from '../helpers/secret_scan';
import { newTenant, randomIp, request, type Tenant } from '../helpers/tenant';

export async function studioTenant(env: TestEnv, opts: { studio?: boolean } = {}) {
  return newTenant(env, { features: { agency_tools: true, studio: opts.studio ?? true } });
}

export async function addHook(t: Tenant, clientId = t.client.id, toolName = 'Clay') {
  const r = await t.admin('POST', `/admin/v1/clients/${clientId}/bridge-hooks`, { tool_name: toolName });
  if (r.status !== 201) throw new Error(`hook not created: ${r.status} ${r.text}`);
  recordSecret(inject('logDir'), r.json.secret);
  return { id: r.json.hook.id as string, secret: r.json.secret as string, url: r.json.hook.url as string };
}

export type Hook = Awaited<ReturnType<typeof addHook>>;

/** POSTs `body` (JSON, or `raw` text) to the hook with its secret in `x-bridge-secret` unless other headers are given. */
export function bridgePost(env: TestEnv, hook: { id: string; secret?: string }, body: unknown, opts: { headers?: Record<string, string>; raw?: string; ip?: string } = {}) {
  const headers = opts.headers ?? (hook.secret ? { 'x-bridge-secret': hook.secret } : {});
  return request(env, 'POST', `/v1/bridge/inbound/${hook.id}`, {
    key: null,
    headers: { 'content-type': 'application/json', ...headers },
    ...(opts.raw !== undefined ? { raw: opts.raw } : { body }),
    ip: opts.ip ?? randomIp(),
  });
}

let n = 0;
/** A row with a work email no other test uses. */
export const personRow = (extra: Record<string, unknown> = {}) => {
  const i = `${Date.now().toString(36)}${randomInt(1e9)}${n++}`;
  return { email: `ana.${i}@acme-${i}.com`, first_name: 'Ana', last_name: 'Lima', company: `Acme ${i}`, title: 'Head of Sales', ...extra };
};
