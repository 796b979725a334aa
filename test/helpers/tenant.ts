import { randomInt } from 'node:crypto';
import { createCampaign, createClient, createKey, createOrg, type KeyInput } from '../../lib/orgs/admin';
import { ingestReply, type InboundReply } from '../../lib/ingest/ingest_reply';
import { inject } from 'vitest';
import { ADMIN_TOKEN, type TestEnv } from './harness';
import { recordSecret } from './secret_scan';

export type Call = { key?: string | null; body?: unknown; raw?: string; headers?: Record<string, string>; ip?: string };

/** Each tenant calls from its own address so the per-IP limit of one test never touches another. */
export const randomIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

export async function request(env: TestEnv, method: string, path: string, call: Call & { ip: string }) {
  const headers: Record<string, string> = { 'x-forwarded-for': call.ip, ...call.headers };
  if (call.key) headers['x-service-key'] = call.key;
  let body: string | undefined;
  if (call.raw !== undefined) body = call.raw;
  else if (call.body !== undefined) {
    body = JSON.stringify(call.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await env.app.request(path, { method, headers, body });
  const text = await res.text();
  let json: any = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  if (typeof json?.secret === 'string') recordSecret(inject('logDir'), json.secret);
  return { status: res.status, headers: res.headers, json, text };
}

/** A fresh organization with a client, a campaign and a full-scope key; helpers to add more. */
export async function newTenant(env: TestEnv, opts: { features?: { crm?: boolean; agency_tools?: boolean; studio?: boolean } } = {}) {
  const db = env.services.db;
  const now = env.clock.now();
  const org = await createOrg(db, { name: `org-${randomInt(1e9)}`, features: opts.features });
  const client = await createClient(db, org.id, { name: 'Client A' });
  const campaign = await createCampaign(db, org.id, { name: 'Campaign A', client_id: client.id, sent: 200, opened: 80 }, now);
  const ip = randomIp();
  const createKeyRecorded = async (input: KeyInput) => {
    const created = await createKey(db, org.id, input);
    recordSecret(inject('logDir'), created.secret);
    return created;
  };
  const { secret: key } = await createKeyRecorded({ name: 'owner key' });
  const t = {
    org,
    client,
    campaign,
    key,
    ip,
    call: (method: string, path: string, call: Call = {}) => request(env, method, path, { key: call.key === undefined ? key : call.key, ...call, ip: call.ip ?? ip }),
    admin: (method: string, path: string, body?: unknown, token = ADMIN_TOKEN) =>
      request(env, method, path, { key: null, body, headers: { authorization: `Bearer ${token}` }, ip }),
    addKey: async (input: Partial<KeyInput> = {}) => (await createKeyRecorded({ name: 'extra key', ...input })).secret,
    addKeyRecord: (input: Partial<KeyInput> = {}) => createKeyRecorded({ name: 'extra key', ...input }),
    addClient: (name = 'Client B') => createClient(db, org.id, { name }),
    addCampaign: (clientId: string | null, name = 'Campaign B') => createCampaign(db, org.id, { name, client_id: clientId, sent: 100, opened: 10 }, env.clock.now()),
    reply: (input: Partial<InboundReply> = {}) =>
      ingestReply({
        db,
        orgId: org.id,
        classify: env.services.classify,
        now: env.clock.now(),
        input: { campaign_id: campaign.id, from_email: `p${randomInt(1e9)}@prospect.com`, from_name: 'Pat Prospect', body: 'Sounds good, can we schedule a call next week?', ...input },
      }),
  };
  return t;
}
export type Tenant = Awaited<ReturnType<typeof newTenant>>;
