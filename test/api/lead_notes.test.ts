// PATCH /v1/leads/{id} with `notes` adds a note to the lead's notes (at = now, by = the key's name): the same list
// the CRM API shows (crm_notes, after the legacy note), never replacing an earlier note. The response keeps
// core §4's shape.
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crmNotes, events, leads } from '../../schema';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { crmTenant } from './crm_helpers';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

describe('PATCH /v1/leads/{id} notes', () => {
  it('appends each note with the time and the key name; the CRM API shows them after the legacy note, in order', async () => {
    const t = await crmTenant(env, { crmKeyName: 'HubSpot sync' });
    const { leadId, replyId } = await t.lead({ classification: 'warm' });
    // A note from before the CRM API existed (the old single notes field).
    await env.services.db.update(leads).set({ notes: 'Met at the fair in 2023' }).where(eq(leads.id, leadId));
    const agent = await t.addKey({ name: 'SDR agent', scopes: ['leads.write'] });

    const first = await t.call('PATCH', `/v1/leads/${replyId}`, { key: agent, body: { notes: 'Asked for pricing' } });
    expect(first.status).toBe(200);
    expect(first.json).toEqual({ updated: true, email: expect.any(String), classification: 'warm', updated_at: expect.any(String) });
    const firstAt = env.clock.now().getTime();
    env.clock.advance(60_000);
    expect((await t.crm('POST', `/v1/crm/leads/${leadId}/notes`, { text: 'Call booked' })).status).toBe(201);
    env.clock.advance(60_000);
    const second = await t.call('PATCH', `/v1/leads/${replyId}`, { body: { notes: 'Sent the case study' } });
    expect(second.json.updated).toBe(true);

    const lead = (await t.crm('GET', `/v1/crm/leads/${leadId}`)).json.lead;
    expect(lead.notes.map((n: any) => [n.by, n.text])).toEqual([
      ['legacy', 'Met at the fair in 2023'],
      ['SDR agent', 'Asked for pricing'],
      ['HubSpot sync', 'Call booked'],
      ['owner key', 'Sent the case study'],
    ]);
    expect(Math.abs(Date.parse(lead.notes[1].at) - firstAt)).toBeLessThan(5_000);
    expect(Date.parse(lead.notes[3].at)).toBeGreaterThan(Date.parse(lead.notes[2].at));
    // A note is a CRM change: crm_updated_at moves with it (if_updated_at sees it).
    expect(lead.crm_updated_at).toBe(second.json.updated_at);
    // The legacy field is never written again.
    const [row] = await env.services.db.select({ notes: leads.notes }).from(leads).where(eq(leads.id, leadId));
    expect(row.notes).toBe('Met at the fair in 2023');
  });

  it('the same text twice is two notes; with a classification both change in one write, one trail row and one event', async () => {
    const t = await crmTenant(env);
    const { leadId, replyId } = await t.lead({ classification: 'warm' });
    for (let i = 0; i < 2; i++) {
      expect((await t.call('PATCH', `/v1/leads/${replyId}`, { body: { notes: 'Left a voicemail' } })).status).toBe(200);
      env.clock.advance(1_000);
    }
    const both = await t.call('PATCH', `/v1/leads/${replyId}`, { body: { classification: 'hot', notes: 'Called back: wants a demo' } });
    expect(both.json).toMatchObject({ updated: true, classification: 'hot' });
    const notes = await env.services.db.select().from(crmNotes).where(eq(crmNotes.leadId, leadId)).orderBy(asc(crmNotes.at));
    expect(notes.map((n) => [n.by, n.text])).toEqual([
      ['owner key', 'Left a voicemail'],
      ['owner key', 'Left a voicemail'],
      ['owner key', 'Called back: wants a demo'],
    ]);
    const trail = (await t.admin('GET', `/admin/v1/orgs/${t.org.id}/decisions?lead_id=${leadId}`)).json.decisions;
    expect(trail).toHaveLength(3);
    expect(trail[0]).toMatchObject({ action: 'lead.updated', actor: 'owner key', detail: { changed: ['classification', 'notes'], to: { classification: 'hot' } } });
    expect(trail[0].detail.note_id).toBe(notes[2].id);
    const emitted = await env.services.db.select().from(events).where(eq(events.orgId, t.org.id));
    expect(emitted.filter((e) => e.kind === 'lead.updated').map((e) => (e.data as any).changed)).toEqual(
      expect.arrayContaining([['notes'], ['notes'], ['classification', 'notes']]),
    );
    expect(emitted.filter((e) => e.kind === 'lead.updated')).toHaveLength(3);
  });

  it('refuses an empty note (400 naming notes) and writes nothing', async () => {
    const t = await crmTenant(env);
    const { leadId, replyId } = await t.lead({ classification: 'warm' });
    for (const notes of ['', '   ']) {
      const r = await t.call('PATCH', `/v1/leads/${replyId}`, { body: { notes } });
      expect(r.status).toBe(400);
      expect(r.json.error.message).toMatch(/^notes: /);
    }
    expect(await env.services.db.select().from(crmNotes).where(eq(crmNotes.leadId, leadId))).toEqual([]);
  });
});
