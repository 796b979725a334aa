// core §4 PATCH /v1/crm/leads/{id} and notes (operator §4 shapes): fields, validation, if_updated_at → 409
// conflict with the current lead and nothing written, last write wins with both sides in the Decision Trail.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crmNotes, decisions, leads } from '../../schema';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { crmTenant, trailOfLead } from './crm_helpers';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

const snapshot = async (leadId: string) => ({
  lead: await env.services.db.select().from(leads).where(eq(leads.id, leadId)),
  notes: await env.services.db.select().from(crmNotes).where(eq(crmNotes.leadId, leadId)),
  trail: await env.services.db.select().from(decisions).where(eq(decisions.leadId, leadId)),
});

describe('PATCH /v1/crm/leads/{id}', () => {
  it('sets phase, deal and next action, answers { lead }, and records the write with the key as actor', async () => {
    const t = await crmTenant(env, { crmKeyName: 'HubSpot sync' });
    const { leadId } = await t.lead();
    const r = await t.crm('PATCH', `/v1/crm/leads/${leadId}`, {
      phase: 'proposal',
      deal: { value: 12500.5, currency: 'eur' },
      next_action: { date: '2026-03-02', note: 'Send the contract' },
    });
    expect(r.status).toBe(200);
    expect(r.json.lead).toMatchObject({ id: leadId, phase: 'proposal', deal: { value: 12500.5, currency: 'EUR' }, next_action: { date: '2026-03-02', note: 'Send the contract' } });
    expect(r.json.lead.crm_updated_at).toBe(r.json.lead.updated_at);
    expect((await t.crm('GET', `/v1/crm/leads/${leadId}`)).json.lead).toEqual(r.json.lead);
    const [d] = await trailOfLead(t, leadId);
    expect(d).toMatchObject({
      action: 'crm.lead_updated',
      actor: 'HubSpot sync',
      detail: { changed: ['phase', 'deal', 'next_action'], from: { phase: 'new', deal: null, next_action: null }, policy: 'last_write_wins' },
    });
  });

  it('clears deal and next action with null; a next action without a note gets an empty note', async () => {
    const t = await crmTenant(env);
    const { leadId } = await t.lead();
    await t.crm('PATCH', `/v1/crm/leads/${leadId}`, { deal: { value: 5, currency: 'USD' }, next_action: { date: '2026-01-31' } });
    expect((await t.crm('GET', `/v1/crm/leads/${leadId}`)).json.lead.next_action).toEqual({ date: '2026-01-31', note: '' });
    const r = await t.crm('PATCH', `/v1/crm/leads/${leadId}`, { deal: null, next_action: null });
    expect(r.json.lead).toMatchObject({ deal: null, next_action: null });
  });

  it('refuses bad input with 400 validation_error naming the field, writing nothing', async () => {
    const t = await crmTenant(env);
    const { leadId } = await t.lead();
    const before = await snapshot(leadId);
    for (const [body, field] of [
      [{ phase: 'closed' }, 'phase'],
      [{ deal: { value: 10, currency: 'EURO' } }, 'deal.currency'],
      [{ deal: { value: 10, currency: 'XYZ' } }, 'deal.currency'],
      [{ deal: { value: -1, currency: 'EUR' } }, 'deal.value'],
      [{ deal: { currency: 'EUR' } }, 'deal.value'],
      [{ next_action: { date: '2026-02-30', note: 'x' } }, 'next_action.date'],
      [{ next_action: { date: '02/03/2026', note: 'x' } }, 'next_action.date'],
      [{ classification: 'hot' }, 'body'],
      [{ if_updated_at: 'yesterday' }, 'if_updated_at'],
    ] as const) {
      const r = await t.crm('PATCH', `/v1/crm/leads/${leadId}`, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.error.code).toBe('validation_error');
      expect(r.json.error.message.startsWith(field), r.json.error.message).toBe(true);
    }
    expect(await snapshot(leadId)).toEqual(before);
  });

  it('a write that changes nothing writes nothing: no trail row, updated_at unchanged', async () => {
    const t = await crmTenant(env);
    const { leadId } = await t.lead();
    const first = (await t.crm('PATCH', `/v1/crm/leads/${leadId}`, { phase: 'discovery', deal: { value: 100, currency: 'EUR' } })).json.lead;
    const again = await t.crm('PATCH', `/v1/crm/leads/${leadId}`, { phase: 'discovery', deal: { currency: 'EUR', value: 100 } });
    expect(again.status).toBe(200);
    expect(again.json.lead).toEqual(first);
    expect(await trailOfLead(t, leadId)).toHaveLength(1);
  });
});

describe('conflicts', () => {
  it('a stale if_updated_at is 409 conflict carrying the current lead; nothing is written', async () => {
    const t = await crmTenant(env);
    const other = await t.addKey({ name: 'Pipedrive', scopes: ['crm.write', 'crm.read'], client_id: t.client.id });
    const { leadId } = await t.lead();
    const read = (await t.crm('PATCH', `/v1/crm/leads/${leadId}`, { phase: 'contacted' })).json.lead;
    const theirs = (await t.crm('PATCH', `/v1/crm/leads/${leadId}`, { phase: 'discovery' }, other)).json.lead;
    const before = await snapshot(leadId);
    const r = await t.crm('PATCH', `/v1/crm/leads/${leadId}`, { phase: 'lost', if_updated_at: read.crm_updated_at });
    expect(r.status).toBe(409);
    expect(r.json.error.code).toBe('conflict');
    expect(r.json.lead).toEqual(theirs);
    // Nothing written: the lead, its notes and its trail (two rows: the two accepted writes) are as before.
    expect(await snapshot(leadId)).toEqual(before);
    expect(before.trail).toHaveLength(2);
    const staleNote = await t.crm('PATCH', `/v1/crm/leads/${leadId}`, { deal: { value: 1, currency: 'EUR' }, if_updated_at: read.crm_updated_at });
    expect(staleNote.status).toBe(409);
    expect(await snapshot(leadId)).toEqual(before);
  });

  it('a current if_updated_at writes; null means "only if no CRM write happened yet"', async () => {
    const t = await crmTenant(env);
    const { leadId } = await t.lead();
    const fresh = await t.crm('PATCH', `/v1/crm/leads/${leadId}`, { phase: 'contacted', if_updated_at: null });
    expect(fresh.status).toBe(200);
    expect((await t.crm('PATCH', `/v1/crm/leads/${leadId}`, { phase: 'discovery', if_updated_at: null })).status).toBe(409);
    const ok = await t.crm('PATCH', `/v1/crm/leads/${leadId}`, { phase: 'discovery', if_updated_at: fresh.json.lead.crm_updated_at });
    expect(ok.status).toBe(200);
    expect(Date.parse(ok.json.lead.crm_updated_at)).toBeGreaterThan(Date.parse(fresh.json.lead.crm_updated_at));
    const [, second] = await trailOfLead(t, leadId);
    expect(second.detail.policy).toBe('if_updated_at');
  });

  it('changes outside the CRM fields (a new reply) do not make if_updated_at stale', async () => {
    const t = await crmTenant(env);
    const { leadId } = await t.lead({ email: 'ana@umbrella.com' });
    const read = (await t.crm('PATCH', `/v1/crm/leads/${leadId}`, { phase: 'contacted' })).json.lead;
    await t.reply({ from_email: 'ana@umbrella.com', body: 'Thanks, looking forward to the call.' });
    expect((await t.crm('PATCH', `/v1/crm/leads/${leadId}`, { phase: 'discovery', if_updated_at: read.crm_updated_at })).status).toBe(200);
  });

  it('without if_updated_at the last write wins and the trail keeps both sides', async () => {
    const t = await crmTenant(env, { crmKeyName: 'HubSpot sync' });
    const other = await t.addKey({ name: 'Pipedrive', scopes: ['crm.write'], client_id: t.client.id });
    const { leadId } = await t.lead();
    const a = (await t.crm('PATCH', `/v1/crm/leads/${leadId}`, { deal: { value: 1000, currency: 'EUR' } })).json.lead;
    const b = await t.crm('PATCH', `/v1/crm/leads/${leadId}`, { deal: { value: 2000, currency: 'USD' } }, other);
    expect(b.json.lead.deal).toEqual({ value: 2000, currency: 'USD' });
    const [first, second] = await trailOfLead(t, leadId);
    expect(first).toMatchObject({ actor: 'HubSpot sync', detail: { from: { deal: null }, to: { deal: { value: 1000, currency: 'EUR' } } } });
    expect(second).toMatchObject({
      actor: 'Pipedrive',
      detail: { from: { deal: { value: 1000, currency: 'EUR' } }, to: { deal: { value: 2000, currency: 'USD' } }, policy: 'last_write_wins', overwrote_crm_updated_at: a.crm_updated_at },
    });
  });
});

describe('POST /v1/crm/leads/{id}/notes', () => {
  it('appends with the key name as author, answers 201 { lead }, and refuses empty or oversized text', async () => {
    const t = await crmTenant(env, { crmKeyName: 'Close.com' });
    const { leadId } = await t.lead();
    const r = await t.crm('POST', `/v1/crm/leads/${leadId}/notes`, { text: 'Asked for a case study' });
    expect(r.status).toBe(201);
    expect(r.json.lead.notes).toEqual([{ at: expect.any(String), by: 'Close.com', text: 'Asked for a case study' }]);
    expect((await trailOfLead(t, leadId)).at(-1)).toMatchObject({ action: 'crm.note_added', actor: 'Close.com' });
    for (const body of [{ text: '   ' }, { text: 'x'.repeat(5001) }, {}, { text: 'ok', by: 'me' }]) {
      const bad = await t.crm('POST', `/v1/crm/leads/${leadId}/notes`, body);
      expect(bad.status, JSON.stringify(body).slice(0, 40)).toBe(400);
    }
    expect((await t.crm('POST', `/v1/crm/leads/${leadId}/notes`, { text: 'x'.repeat(5000) })).status).toBe(201);
  });
});
