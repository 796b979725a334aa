// Shared by the CRM tests: an organization with the CRM feature and a client-locked CRM key, leads of a chosen
// classification, and a sync client that follows next_cursor to the end.
import { randomInt } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { leads } from '../../schema';
import type { TestEnv } from '../helpers/harness';
import { newTenant, randomIp, type Tenant } from '../helpers/tenant';

export type CrmTenant = Tenant & {
  /** Client-locked key with crm.read and crm.write. */
  crmKey: string;
  /** Sets a lead's classification as the core API does (PATCH /v1/leads/{reply id}). */
  lead(opts?: { classification?: string | null; email?: string; name?: string | null; body?: string }): Promise<{ leadId: string; replyId: string }>;
  crm(method: string, path: string, body?: unknown, key?: string): ReturnType<Tenant['call']>;
};

export async function crmTenant(env: TestEnv, opts: { crmKeyName?: string; portal?: Record<string, boolean> } = {}): Promise<CrmTenant> {
  const t = await newTenant(env, { features: { crm: true } });
  if (opts.portal) expect((await t.admin('PATCH', `/admin/v1/clients/${t.client.id}`, { portal: opts.portal })).status).toBe(200);
  const crmKey = await t.addKey({ name: opts.crmKeyName ?? 'HubSpot sync', scopes: ['crm.read', 'crm.write'], client_id: t.client.id, rate_limit_per_minute: 1000 });
  const lead: CrmTenant['lead'] = async (o = {}) => {
    const { reply, leadId } = await t.reply({
      from_email: o.email ?? `p${randomInt(1e9)}@acme-${randomInt(1e6)}.com`,
      ...(o.name !== undefined ? { from_name: o.name } : {}),
      body: o.body ?? 'Sounds good, can we schedule a call next week?',
    });
    if (o.classification !== undefined) await setClassification(env, leadId, o.classification);
    return { leadId, replyId: reply.id };
  };
  const crm: CrmTenant['crm'] = (method, path, body, key = crmKey) => t.call(method, path, { key, body, ip: randomIp() });
  return Object.assign(t, { crmKey, lead, crm });
}

/** Any classification, including values the core API cannot set (null = not yet classified, 'spam'). */
export async function setClassification(env: TestEnv, leadId: string, classification: string | null) {
  await env.services.db.update(leads).set({ classification }).where(eq(leads.id, leadId));
}

/** Follows next_cursor until has_more is false; fails on a non-200 page. */
export async function listAll(t: CrmTenant, query = '', opts: { limit?: number; key?: string } = {}) {
  const pages: any[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 1000; i++) {
    const params = new URLSearchParams(query);
    if (opts.limit) params.set('limit', String(opts.limit));
    if (cursor) params.set('cursor', cursor);
    const r = await t.crm('GET', `/v1/crm/leads?${params}`, undefined, opts.key);
    expect(r.status, r.text).toBe(200);
    pages.push(r.json);
    if (!r.json.has_more) {
      expect(r.json.next_cursor).toBeNull();
      break;
    }
    cursor = r.json.next_cursor;
  }
  return { leads: pages.flatMap((p) => p.leads) as any[], pages };
}

export async function trailOfLead(t: Tenant, leadId: string) {
  const r = await t.admin('GET', `/admin/v1/orgs/${t.org.id}/decisions?lead_id=${leadId}`);
  expect(r.status).toBe(200);
  return (r.json.decisions as Array<{ action: string; actor: string; detail: Record<string, any> }>).slice().reverse();
}
