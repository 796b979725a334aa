// Objects a tenant owns, by path parameter, and a valid body per write route: the generated auth and isolation
// tests fill every route template from here. A new route with a new parameter needs an entry.
import { createInboundSource } from '../../lib/inbound/sources';
import { generateReport } from '../../lib/reports/generate_report';
import { inject } from 'vitest';
import { recordSecret } from './secret_scan';
import { createWebhook } from '../../lib/webhooks/manage';
import type { TestEnv } from './harness';
import type { Tenant } from './tenant';

export async function objectFixtures(env: TestEnv, t: Tenant): Promise<Record<string, string>> {
  const { reply, leadId } = await t.reply({ body: 'Interesting, what does it cost?' });
  const report = await generateReport({ db: env.services.db, orgId: t.org.id, clientId: null, briefType: 'friday', now: env.clock.now() });
  const auth = { orgId: t.org.id, clientId: null, keyName: 'fixture' } as Parameters<typeof createWebhook>[0]['auth'];
  const { webhook } = await createWebhook({ services: env.services, auth, input: { name: 'fixture', url: 'https://hooks.example.com/fixture', events: ['lead.replied'] }, now: env.clock.now() });
  const inbound = await createInboundSource(env.services.db, { orgId: t.org.id, provider: 'generic', baseUrl: 'http://127.0.0.1', now: env.clock.now() });
  recordSecret(inject('logDir'), inbound.secret);
  return {
    id: reply.id,
    // Agency routes name their parameters after the resource (agency-operator.md §2).
    client_id: t.client.id,
    campaign_id: t.campaign.id,
    reply_id: reply.id,
    report_id: report.id,
    // Inbound webhooks are addressed by the source and authenticated by its secret (not an API key).
    source_id: inbound.source.id,
    inbound_secret: inbound.secret,
    // An address on the do-not-contact list: the admin opt-out routes address entries by email.
    email: reply.from_email,
    '/v1/replies/{id}:id': reply.id,
    '/v1/leads/{id}:id': reply.id,
    '/v1/reports/{id}:id': report.id,
    // CRM leads are addressed by the lead's stable id (a warm, visible lead of the tenant's client).
    '/v1/crm/leads/{id}:id': leadId,
    '/v1/crm/leads/{id}/notes:id': leadId,
    ...Object.fromEntries(['', '/test', '/deliveries', '/redeliver', '/rotate-secret'].map((tail) => [`/v1/webhooks/{id}${tail}:id`, webhook.id])),
  };
}

const BODIES: Record<string, unknown> = {
  'PATCH /v1/leads/{id}': { classification: 'warm' },
  'PATCH /v1/crm/leads/{id}': { phase: 'discovery' },
  'POST /v1/crm/leads/{id}/notes': { text: 'Called; wants a proposal by Friday.' },
  'POST /v1/replies/{id}/send': { body: 'Thanks, here is the deck.' },
  'POST /v1/replies/{id}/approve': { approver: 'Maria' },
  'POST /v1/replies/{id}/reject': { approver: 'Maria', reason: 'tone' },
  'POST /v1/replies/{id}/skip': { reason: 'answered by phone' },
  'POST /v1/suggest': { reply_received: 'Sounds good, can we talk next week?' },
  'POST /v1/suggest/feedback': { accepted: true },
  'POST /v1/webhooks': { name: 'n', url: 'https://hooks.example.com/x', events: ['lead.replied'] },
  'PATCH /v1/webhooks/{id}': { is_active: false },
  'POST /v1/webhooks/{id}/redeliver': { event_id: 'evt_fixture' },
  'POST /v1/webhooks/{id}/rotate-secret': { previous_secret_expires_in_hours: 1 },
  'POST /v1/agency/clients': { name: 'Fixture client' },
  'PATCH /v1/agency/clients/{client_id}': { name: 'Renamed client' },
  'PUT /v1/agency/clients/{client_id}/auto-write': { auto_write: true },
  'PUT /v1/agency/clients/{client_id}/playbook': { instructions: 'Answer briefly and propose a call.' },
  'PATCH /v1/agency/docs': { text: 'We answer within a day.' },
  'PATCH /v1/agency/campaigns/{campaign_id}': { client_id: null },
  'POST /v1/inbound/{source_id}': {
    message_id: '<fixture@prospect.io>',
    from_email: 'fixture@prospect.io',
    text: 'Sounds good, send details.',
    campaign: { name: 'Fixture campaign' },
  },
};

export function sampleBody(method: string, path: string): unknown {
  if (method === 'GET' || method === 'DELETE') return undefined;
  return BODIES[`${method} ${path}`] ?? {};
}
