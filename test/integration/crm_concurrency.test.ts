// Row-lock behaviour of CRM writes and follow-up runs on real PostgreSQL (Neon driver, a pool of 10); PGlite runs
// one transaction at a time and cannot show it.
import { describe, expect, it } from 'vitest';
import { runFollowup } from '../../lib/followups/send_due';
import { TIER } from '../helpers/harness';
import { webhookSuite } from '../helpers/webhook_env';
import { crmTenant, trailOfLead } from '../api/crm_helpers';
import { byId, plan } from '../api/followups_helpers';
import { outbox } from '../api/send_helpers';

const { env } = webhookSuite({ integrationOnly: true }); // its own database: follow-up runs see every organization's rows

const tally = (statuses: number[]) => statuses.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});

describe.skipIf(TIER !== 'integration')('concurrent CRM writes and follow-up runs (real PostgreSQL)', () => {
  it('10 writers with the same if_updated_at: exactly one wins, nine get 409 with the winner’s lead', async () => {
    const t = await crmTenant(env);
    const keys = await Promise.all(Array.from({ length: 10 }, (_, i) => t.addKey({ name: `crm ${i}`, scopes: ['crm.write'], client_id: t.client.id })));
    const { leadId } = await t.lead();
    const read = (await t.crm('PATCH', `/v1/crm/leads/${leadId}`, { phase: 'contacted' })).json.lead;
    const results = await Promise.all(
      keys.map((key, i) => t.crm('PATCH', `/v1/crm/leads/${leadId}`, { deal: { value: i + 1, currency: 'EUR' }, if_updated_at: read.crm_updated_at }, key)),
    );
    expect(tally(results.map((r) => r.status))).toEqual({ 200: 1, 409: 9 });
    const winner = results.find((r) => r.status === 200)!.json.lead;
    for (const r of results.filter((x) => x.status === 409)) expect(r.json.lead).toEqual(winner);
    expect((await trailOfLead(t, leadId)).filter((d) => d.action === 'crm.lead_updated')).toHaveLength(2);
  });

  it('10 writers without if_updated_at: all succeed one after another, the trail holds each with what it overwrote', async () => {
    const t = await crmTenant(env);
    const keys = await Promise.all(Array.from({ length: 10 }, (_, i) => t.addKey({ name: `crm ${i}`, scopes: ['crm.write'], client_id: t.client.id })));
    const { leadId } = await t.lead();
    const results = await Promise.all(keys.map((key, i) => t.crm('PATCH', `/v1/crm/leads/${leadId}`, { deal: { value: i + 1, currency: 'EUR' } }, key)));
    expect(results.every((r) => r.status === 200)).toBe(true);
    const writes = (await trailOfLead(t, leadId)).filter((d) => d.action === 'crm.lead_updated');
    expect(writes).toHaveLength(10);
    // Each write saw the one before it: the "from" values chain through every "to" exactly once.
    const froms = writes.map((d) => d.detail.from.deal?.value ?? null).sort();
    const tos = writes.map((d) => d.detail.to.deal.value);
    expect(froms.filter((v) => v === null)).toHaveLength(1);
    expect(new Set(froms.filter((v) => v !== null)).size).toBe(9);
    const final = (await t.crm('GET', `/v1/crm/leads/${leadId}`)).json.lead.deal.value;
    expect(tos).toContain(final);
    expect(froms).not.toContain(final);
  });

  it('a due follow-up run 8 times at once (at-least-once delivery) is sent once', async () => {
    const t = await crmTenant(env);
    const { replyId } = await t.lead();
    const f = await plan(t, replyId, { now: env.clock.now(), dueInMs: 0 });
    const outcomes = await Promise.all(Array.from({ length: 8 }, () => runFollowup(env.services, f.id)));
    expect(outcomes.filter((o) => o === 'sent')).toHaveLength(1);
    expect(outcomes.filter((o) => o !== 'sent').every((o) => o === 'skipped')).toBe(true);
    expect(await outbox(t, replyId)).toHaveLength(1);
    expect((await byId(t, f.id)).status).toBe('sent');
  });

  it('a CRM write racing a due follow-up: either the follow-up went out before, or it waits in review; never both', async () => {
    for (let i = 0; i < 5; i++) {
      const t = await crmTenant(env);
      const { leadId, replyId } = await t.lead();
      const f = await plan(t, replyId, { now: env.clock.now(), dueInMs: 0 });
      const [write, outcome] = await Promise.all([t.crm('POST', `/v1/crm/leads/${leadId}/notes`, { text: 'call booked' }), runFollowup(env.services, f.id)]);
      expect(write.status).toBe(201);
      const status = (await byId(t, f.id)).status;
      const sent = await outbox(t, replyId);
      if (outcome === 'sent') expect([status, sent.length]).toEqual(['sent', 1]);
      else expect([status, sent.length]).toEqual(['review', 0]);
    }
  });
});
