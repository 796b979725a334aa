import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { newTenant } from '../helpers/tenant';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

describe('GET /v1/leads', () => {
  it('aggregates replies into one lead per email and campaign, newest first', async () => {
    const t = await newTenant(env);
    const other = await t.addCampaign(t.client.id, 'Campaign B');
    await t.reply({ from_email: 'Ann@Example.com', from_name: 'Ann', body: 'Can we talk on Tuesday?', received_at: '2026-11-01T10:00:00Z' });
    await t.reply({ from_email: 'ann@example.com', body: 'Any update?', received_at: '2026-11-02T10:00:00Z' });
    await t.reply({ from_email: 'ann@example.com', body: 'Please remove me.', campaign_id: other.id, received_at: '2026-11-03T10:00:00Z' });
    await t.reply({ from_email: 'bob@example.com', from_name: null, body: 'Who are you?', received_at: '2026-10-30T10:00:00Z' });

    const r = await t.call('GET', '/v1/leads');
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ count: 3, total_count: 3, limit: 50, offset: 0, has_more: false });
    expect(r.json.leads.map((l: any) => [l.email, l.campaign_name, l.reply_count])).toEqual([
      ['ann@example.com', 'Campaign B', 1],
      ['ann@example.com', 'Campaign A', 2],
      ['bob@example.com', 'Campaign A', 1],
    ]);
    const ann = r.json.leads[1];
    expect(ann).toEqual({
      email: 'ann@example.com',
      name: 'Ann',
      campaign_id: t.campaign.id,
      campaign_name: 'Campaign A',
      client_name: 'Client A',
      classification: expect.any(String),
      reply_count: 2,
      last_reply_at: '2026-11-02T10:00:00.000Z',
    });
    expect(r.json.leads[2].name).toBeNull();
  });

  it('filters by campaign, classification and since, and pages with offset', async () => {
    const t = await newTenant(env);
    const b = await t.addCampaign(null, 'Campaign B');
    for (let i = 0; i < 5; i++) await t.reply({ body: 'Remove me from your list.', received_at: `2026-11-0${i + 1}T09:00:00Z` });
    await t.reply({ campaign_id: b.id, body: 'Yes, let us book a demo next week.', received_at: '2026-11-06T09:00:00Z' });

    const byCampaign = await t.call('GET', `/v1/leads?campaign_id=${b.id}`);
    expect(byCampaign.json.total_count).toBe(1);
    expect(byCampaign.json.leads[0].client_name).toBeNull();
    const byClass = await t.call('GET', '/v1/leads?classification=not_interested');
    expect(byClass.json.total_count).toBe(5);
    expect(byClass.json.leads.every((l: any) => l.classification === 'not_interested')).toBe(true);
    const since = await t.call('GET', '/v1/leads?since=2026-11-03T12:00:00Z');
    expect(since.json.total_count).toBe(3);
    const page = await t.call('GET', '/v1/leads?limit=2&offset=2');
    expect(page.json).toMatchObject({ count: 2, total_count: 6, limit: 2, offset: 2, has_more: true });
    const past = await t.call('GET', '/v1/leads?limit=2&offset=10');
    expect(past.json).toMatchObject({ count: 0, total_count: 6, has_more: false, leads: [] });
  });

  it('refuses out-of-range and malformed query parameters naming the field', async () => {
    const t = await newTenant(env);
    for (const [query, field] of [
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['limit=abc', 'limit'],
      ['offset=-1', 'offset'],
      ['classification=lukewarm', 'classification'],
      ['campaign_id=not-a-uuid', 'campaign_id'],
      ['since=yesterday', 'since'],
    ]) {
      const r = await t.call('GET', `/v1/leads?${query}`);
      expect(r.status, query).toBe(400);
      expect(r.json.error.code).toBe('validation_error');
      expect(r.json.error.message).toContain(field);
    }
  });

  it('shows a client-locked key only its client’s leads', async () => {
    const t = await newTenant(env);
    const other = await t.addClient('Client B');
    const otherCampaign = await t.addCampaign(other.id);
    await t.reply({ from_email: 'mine@a.com' });
    await t.reply({ from_email: 'theirs@b.com', campaign_id: otherCampaign.id });
    const locked = await t.addKey({ client_id: t.client.id, scopes: ['leads.read'] });
    const r = await t.call('GET', '/v1/leads', { key: locked });
    expect(r.json.leads.map((l: any) => l.email)).toEqual(['mine@a.com']);
    expect((await t.call('GET', '/v1/leads')).json.total_count).toBe(2);
  });
});

describe('GET /v1/replies/{id}', () => {
  it('returns the reply with its lead’s thread in time order', async () => {
    const t = await newTenant(env);
    const first = await t.reply({ from_email: 'c@x.com', body: 'Tell me more.\n\nOn Mon, Nov 2, 2026 at 9:00 AM Sam <sam@agency.com> wrote:\n> Hi, quick question', received_at: '2026-11-01T08:00:00Z' });
    const second = await t.reply({ from_email: 'c@x.com', body: 'Also, pricing?', received_at: '2026-11-02T08:00:00Z' });
    const r = await t.call('GET', `/v1/replies/${first.reply.id}`);
    expect(r.status).toBe(200);
    expect(r.json.reply).toMatchObject({ id: first.reply.id, from_email: 'c@x.com', campaign_name: 'Campaign A', received_at: '2026-11-01T08:00:00.000Z' });
    expect(r.json.reply.body).toContain('wrote:');
    expect(r.json.thread).toEqual([
      { role: 'reply', content: 'Tell me more.' },
      { role: 'reply', content: 'Also, pricing?' },
    ]);
    expect(r.json.thread_length).toBe(2);
    expect((await t.call('GET', `/v1/replies/${second.reply.id}`)).json.thread_length).toBe(2);
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    const t = await newTenant(env);
    const unknown = await t.call('GET', '/v1/replies/00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.code).toBe('not_found');
    const bad = await t.call('GET', '/v1/replies/42');
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toContain('id');
  });

  it('hides another client’s reply from a client-locked key', async () => {
    const t = await newTenant(env);
    const other = await t.addClient();
    const c = await t.addCampaign(other.id);
    const { reply } = await t.reply({ campaign_id: c.id });
    const locked = await t.addKey({ client_id: t.client.id, scopes: ['leads.read'] });
    expect((await t.call('GET', `/v1/replies/${reply.id}`, { key: locked })).status).toBe(404);
  });
});

describe('PATCH /v1/leads/{id}', () => {
  it('updates classification and notes, writes the Decision Trail and a lead.updated event in one go', async () => {
    const t = await newTenant(env);
    const { reply, leadId } = await t.reply({ body: 'Who is this?' });
    const r = await t.call('PATCH', `/v1/leads/${reply.id}`, { body: { classification: 'hot', notes: 'called back' } });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ updated: true, email: reply.from_email, classification: 'hot' });
    expect(Date.parse(r.json.updated_at)).not.toBeNaN();
    const leads = (await t.call('GET', '/v1/leads')).json.leads;
    expect(leads[0].classification).toBe('hot');
    const decisions = (await t.admin('GET', `/admin/v1/orgs/${t.org.id}/decisions?lead_id=${leadId}`)).json.decisions;
    expect(decisions).toHaveLength(1);
    expect(decisions[0]).toMatchObject({ actor: 'owner key', action: 'lead.updated', reply_id: reply.id, lead_id: leadId });
    const { events } = await import('../../schema');
    const { eq } = await import('drizzle-orm');
    const rows = await env.services.db.select().from(events).where(eq(events.orgId, t.org.id));
    const updated = rows.filter((e) => e.kind === 'lead.updated');
    expect(updated).toHaveLength(1);
    expect(updated[0].data).toMatchObject({ reply_id: reply.id, lead_id: leadId, classification: 'hot' });
  });

  it('writes nothing when nothing changes', async () => {
    const t = await newTenant(env);
    const { reply } = await t.reply();
    await t.call('PATCH', `/v1/leads/${reply.id}`, { body: { classification: 'warm' } });
    const again = await t.call('PATCH', `/v1/leads/${reply.id}`, { body: { classification: 'warm' } });
    expect(again.json.updated).toBe(false);
    const decisions = (await t.admin('GET', `/admin/v1/orgs/${t.org.id}/decisions?reply_id=${reply.id}`)).json.decisions;
    expect(decisions).toHaveLength(1);
  });

  it('validates the body', async () => {
    const t = await newTenant(env);
    const { reply } = await t.reply();
    for (const [body, needle] of [
      [{}, 'classification'],
      [{ classification: 'lukewarm' }, 'classification'],
      [{ notes: 5 }, 'notes'],
      [{ classification: 'hot', extra: 1 }, 'extra'],
    ] as const) {
      const r = await t.call('PATCH', `/v1/leads/${reply.id}`, { body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.error.message).toContain(needle);
    }
    const readOnly = await t.addKey({ read_only: true });
    expect((await t.call('PATCH', `/v1/leads/${reply.id}`, { key: readOnly, body: { classification: 'hot' } })).status).toBe(403);
  });
});
