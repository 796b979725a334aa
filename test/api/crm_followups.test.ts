// core §3 "Effects of a CRM update": won/lost cancels the lead's planned follow-ups and check-ins; any other CRM
// write (phase, deal, next action, note) sends planned follow-ups to review with a reason naming the key; the
// effect commits with the write and its Decision Trail row.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestEnv } from '../helpers/harness';
import { startWebhookEnv } from '../helpers/webhook_env';
import { outbox } from './send_helpers';
import { crmTenant, trailOfLead } from './crm_helpers';
import { byId, followupsOf, plan, runDue } from './followups_helpers';

let env: TestEnv;
beforeAll(async () => {
  // A database of its own in the integration tier: running due jobs works on every organization's rows.
  env = await startWebhookEnv();
});
afterAll(() => env.close());

describe('CRM writes and planned follow-ups', () => {
  it('phase won cancels planned and in-review follow-ups and check-ins; nothing goes out at due time', async () => {
    const t = await crmTenant(env, { crmKeyName: 'HubSpot sync' });
    const { leadId, replyId } = await t.lead();
    const now = env.clock.now();
    const f1 = await plan(t, replyId, { now });
    const c1 = await plan(t, replyId, { kind: 'checkin', now });
    const f2 = await plan(t, replyId, { now, dueInMs: 7_200_000 });
    expect((await t.admin('PATCH', `/admin/v1/orgs/${t.org.id}/followups/${f2.id}`, { status: 'cancelled' })).status).toBe(200);
    const f3 = await plan(t, replyId, { now });
    await t.crm('POST', `/v1/crm/leads/${leadId}/notes`, { text: 'nudge later' }); // f1, f3 → review
    const c2 = await plan(t, replyId, { kind: 'checkin', now });

    const r = await t.crm('PATCH', `/v1/crm/leads/${leadId}`, { phase: 'won' });
    expect(r.status).toBe(200);
    const after = await followupsOf(t, leadId);
    for (const f of after) expect(f.status, f.id).toBe('cancelled');
    expect((await byId(t, f1.id)).reason).toBe('lead marked won through the CRM API by key "HubSpot sync"');
    expect((await byId(t, f2.id)).reason).toBe('cancelled by the owner');
    const d = (await trailOfLead(t, leadId)).filter((x) => x.action === 'crm.lead_updated').at(-1)!;
    expect(d.actor).toBe('HubSpot sync');
    expect(d.detail.followups.cancelled.sort()).toEqual([f1.id, f3.id, c1.id, c2.id].sort());
    await runDue(env, 3 * 3_600_000);
    expect(await outbox(t)).toEqual([]);
  });

  it('phase lost cancels the same way', async () => {
    const t = await crmTenant(env);
    const { leadId, replyId } = await t.lead();
    const f = await plan(t, replyId, { now: env.clock.now() });
    await t.crm('PATCH', `/v1/crm/leads/${leadId}`, { phase: 'lost', deal: { value: 0, currency: 'EUR' } });
    expect((await byId(t, f.id)).status).toBe('cancelled');
  });

  it('any other CRM write sends planned follow-ups to review naming the key; check-ins keep their plan', async () => {
    const t = await crmTenant(env, { crmKeyName: 'Pipedrive bridge' });
    const writes: Array<[string, string, unknown]> = [
      ['PATCH', '', { phase: 'negotiation' }],
      ['PATCH', '', { deal: { value: 900, currency: 'GBP' } }],
      ['PATCH', '', { next_action: { date: '2026-05-01', note: 'call' } }],
      ['POST', '/notes', { text: 'spoke to the CFO' }],
    ];
    for (const [method, tail, body] of writes) {
      const { leadId, replyId } = await t.lead();
      const f = await plan(t, replyId, { now: env.clock.now() });
      const c = await plan(t, replyId, { kind: 'checkin', now: env.clock.now() });
      const r = await t.crm(method, `/v1/crm/leads/${leadId}${tail}`, body);
      expect(r.status, JSON.stringify(body)).toBeLessThan(300);
      const moved = await byId(t, f.id);
      expect(moved.status).toBe('review');
      expect(moved.reason).toContain('"Pipedrive bridge"');
      expect((await byId(t, c.id)).status).toBe('planned');
      const d = (await trailOfLead(t, leadId)).filter((x) => x.action.startsWith('crm.')).at(-1)!;
      expect(d.detail.followups).toEqual({ cancelled: [], moved_to_review: [f.id] });
    }
  });

  it('a follow-up in review waits for a person at its due time; released, it is sent', async () => {
    const t = await crmTenant(env);
    const { leadId, replyId } = await t.lead();
    const f = await plan(t, replyId, { now: env.clock.now(), dueInMs: 60_000 });
    await t.crm('PATCH', `/v1/crm/leads/${leadId}`, { phase: 'discovery' });
    await runDue(env, 120_000);
    expect((await byId(t, f.id)).status).toBe('review');
    expect(await outbox(t)).toEqual([]);
    expect((await t.admin('PATCH', `/admin/v1/orgs/${t.org.id}/followups/${f.id}`, { status: 'planned' })).status).toBe(200);
    await runDue(env);
    expect((await byId(t, f.id)).status).toBe('sent');
    expect((await outbox(t)).map((m) => m.reply_id)).toEqual([replyId]);
  });

  it('a write that changes nothing has no effect on follow-ups', async () => {
    const t = await crmTenant(env);
    const { leadId, replyId } = await t.lead();
    const f = await plan(t, replyId, { now: env.clock.now() });
    expect((await t.crm('PATCH', `/v1/crm/leads/${leadId}`, { phase: 'new' })).status).toBe(200);
    expect((await byId(t, f.id)).status).toBe('planned');
  });
});
