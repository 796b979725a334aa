// Objects a tenant owns, by path parameter, and a valid body per write route: the generated auth and isolation
// tests fill every route template from here. A new route with a new parameter needs an entry.
import { createInboundSource } from '../../lib/inbound/sources';
import { createBridgeHook } from '../../lib/bridge/hooks';
import { putTableDestination } from '../../lib/bridge/destination';
import { createTablePush } from '../../lib/bridge/pushes';
import { generateReport } from '../../lib/reports/generate_report';
import { insertRecipe } from '../../lib/recipes/create';
import { enrichRuns, formulas, planSteps, plans, poolLeads } from '../../schema';
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
  // The table-tool bridge: a hook of the client (its secret authenticates the rows) and a push of its pool.
  const bridge = await createBridgeHook(env.services.db, { clientId: t.client.id, toolName: 'Fixture tool', baseUrl: 'http://127.0.0.1', now: env.clock.now() });
  recordSecret(inject('logDir'), bridge.secret);
  await putTableDestination(env.services, { clientId: t.client.id, url: 'https://table.example.com/fixture', now: env.clock.now() });
  const push = await createTablePush(env.services, { clientId: t.client.id, now: env.clock.now() });
  const recipe = await insertRecipe(env.services.db, { orgId: t.org.id, clientId: t.client.id, name: `Fixture recipe ${Math.random().toString(36).slice(2)}`, definition: { steps: [{ type: 'dns_scan' }] }, actor: 'fixture', now: env.clock.now() });
  // An own formula and a finished formula run of the client (formulas and runs have no admin create route).
  const [formula] = await env.services.db.insert(formulas).values({ orgId: t.org.id, name: `Fixture formula ${Math.random().toString(36).slice(2)}`, kind: 'expression', spec: { expression: 'seniority(title)' }, inputs: ['title'], outputType: 'text', createdBy: 'fixture' }).returning();
  const [run] = await env.services.db.insert(enrichRuns).values({ orgId: t.org.id, clientId: t.client.id, kind: 'formula', recipeId: recipe.id, status: 'done', total: 0, creditCap: 0, actor: 'fixture' }).returning();
  // A finished plan of the client with a step that ran (what undo_step addresses). Done, not open: fixtures are
  // built more than once per tenant and a client has one open plan.
  const [plan] = await env.services.db.insert(plans).values({ orgId: t.org.id, clientId: t.client.id, title: 'Fixture plan', status: 'done', createdBy: 'fixture' }).returning();
  const [, ranStep] = await env.services.db.insert(planSteps).values([
    { planId: plan.id, orgId: t.org.id, clientId: t.client.id, position: 1, kind: 'note', params: { text: 'Fixture reminder' }, createdBy: 'fixture' },
    { planId: plan.id, orgId: t.org.id, clientId: t.client.id, position: 2, kind: 'note', params: { text: 'Fixture done' }, status: 'done' as const, result: { noted: 'Fixture done' }, ranAt: env.clock.now(), createdBy: 'fixture' },
  ]).returning();
  // A pool lead of the client: the review tools address a lead of the open batch by its pool id.
  const [poolLead] = await env.services.db.insert(poolLeads).values({ orgId: t.org.id, clientId: t.client.id, email: `fixture${Math.random().toString(36).slice(2)}@fixture-pool.example` }).returning();
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
    hook_id: bridge.hook.id,
    bridge_secret: bridge.secret,
    push_id: push.id,
    recipe_id: recipe.id,
    formula_id: formula.id,
    run_id: run.id,
    plan_id: plan.id,
    step_id: ranStep.id,
    lead_id: poolLead.id,
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
  'POST /v1/agency/clients/{client_id}/segments': { name: 'Fixture segment', filter: { country: 'Germany' } },
  'POST /v1/agency/clients/{client_id}/suppressions/preview': { entries: ['fixture@blocked.example', 'blocked.example'] },
  'POST /v1/agency/clients/{client_id}/suppressions/import': { entries: ['fixture@blocked.example', 'blocked.example'] },
  'POST /v1/agency/clients/{client_id}/leads/import': { rows: [{ email: 'fixture@fixture-co.example', first_name: 'Fix', company: 'Fixture Co' }] },
  'POST /v1/agency/clients/{client_id}/leads/enrich': { leads: [{ email: 'fixture@fixture-co.example', hook: 'Fixture hook' }] },
  'POST /v1/agency/clients/{client_id}/signals/run': { kinds: ['funding', 'news'] },
  'POST /v1/agency/clients/{client_id}/recipes': { name: 'Fixture recipe 2', definition: { steps: [{ type: 'find_email' }, { type: 'dns_scan' }] } },
  'PUT /v1/agency/clients/{client_id}/recipes/{recipe_id}': { step_changes: [{ op: 'add', step: { type: 'find_email' }, at: 1 }] },
  // recipe_id is a body field here: a well-formed id so the gate reaches the tenant check (tools get the tenant's own).
  'POST /v1/agency/clients/{client_id}/columns': { recipe_id: '00000000-0000-4000-8000-000000000000', column_key: 'seniority', formula: 'seniority_from_title' },
  'POST /v1/agency/clients/{client_id}/recipes/{recipe_id}/copy': { name: 'Fixture recipe copy' },
  'POST /v1/agency/clients/{client_id}/recipes/{recipe_id}/template': { name: 'Fixture template' },
  'POST /v1/agency/formulas': { name: 'Fixture own formula', kind: 'expression', expression: 'department(title)', output_type: 'text' },
  'POST /v1/agency/clients/{client_id}/runs/{run_id}': { continue: true },
  'POST /v1/agency/clients/{client_id}/agreements': { kind: 'meetings_per_month', target: 4, start: '2026-01-01' },
  'POST /v1/agency/clients/{client_id}/plan/steps': { kind: 'note', params: { text: 'Call the client about the new list' } },
  'POST /v1/agency/plans/{plan_id}/change': { step_changes: [{ op: 'add', kind: 'note', params: { text: 'Fixture change' } }] },
  'POST /v1/agency/plans/{plan_id}/dismiss': { days: 3 },
  // Sending infrastructure (issue 17): ids in bodies are well-formed, so the gate reaches the tenant check.
  'PUT /v1/agency/clients/{client_id}/domain-rule': { max_price_cents: 1200 },
  'POST /v1/agency/clients/{client_id}/domains/choose': { domains: ['getfixture.com'] },
  'PUT /v1/agency/clients/{client_id}/domain-workspace': { workspace_id: 'sim-ws-fixture-1' },
  'PUT /v1/agency/clients/{client_id}/auto-protect': { auto_protect: false },
  'POST /v1/agency/clients/{client_id}/mailboxes/attach': { mailbox_ids: ['00000000-0000-4000-8000-000000000001'], campaign_ids: ['00000000-0000-4000-8000-000000000002'] },
  'POST /v1/agency/clients/{client_id}/mailboxes/unpark': { mailbox_id: '00000000-0000-4000-8000-000000000001' },
  'PUT /v1/agency/clients/{client_id}/sequence': { steps: [{ subject: 'Hi {{first_name}}', body: 'A fixture mail for {{company}}.', delay_days: 0 }] },
  'POST /v1/agency/clients/{client_id}/sequence/preview': {},
  'POST /v1/agency/clients/{client_id}/batch/allocate': { size: 10 },
  'POST /v1/agency/clients/{client_id}/review/{lead_id}/edit': { step: 1, body: 'A fixture mail, edited.' },
  'POST /v1/agency/clients/{client_id}/review/{lead_id}/reject': { reason: 'not a fit' },
  'POST /v1/agency/clients/{client_id}/campaigns/start': { day: 0 },
  'POST /v1/agency/clients/{client_id}/learned-rules/activate': { rule_id: '00000000-0000-4000-8000-000000000003' },
  'POST /admin/v1/plans/{plan_id}/approve': { approver: 'Maria' },
  'POST /admin/v1/sim/clock': { advance_seconds: 60 },
  'POST /v1/bridge/inbound/{hook_id}': { email: 'fixture@fixture-table.example', first_name: 'Fix', last_name: 'Ture', company: 'Fixture Table Co' },
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
