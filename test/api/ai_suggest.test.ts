// POST /v1/suggest: the Suggestion shape per medium, exact request validation (the message names the field),
// the client a key may name, and the assistant.suggested event row.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CAPS } from '../../lib/ai/draft';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { newTenant } from '../helpers/tenant';
import { CONTEXT, creditsLeft, MEETING_REPLY, steer, storedSuggestions, suggestedEvents } from './ai_helpers';

let env: TestEnv;
let steered: ReturnType<typeof steer>;
beforeAll(async () => {
  env = await startTestEnv();
  steered = steer(env);
});
afterAll(() => env.close());
beforeEach(() => steered.set({ kind: 'offline' }));

const lead = { lead_name: 'Tom Baker', lead_email: 'tom@acme.com', company: 'Acme', campaign_context: CONTEXT };

describe('POST /v1/suggest', () => {
  it('suggests an email by default: greeting with the first name, a sign-off, 1 credit', async () => {
    const t = await newTenant(env);
    const r = await t.call('POST', '/v1/suggest', { body: { reply_received: MEETING_REPLY, ...lead } });
    expect(r.status).toBe(200);
    expect(Object.keys(r.json).sort()).toEqual(['confidence', 'credits_remaining', 'credits_used', 'medium', 'model', 'strategy', 'suggestion', 'suggestion_id']);
    expect(r.json).toMatchObject({ medium: 'email', model: 'offline-v1', strategy: 'propose_meeting_times', credits_used: 1, credits_remaining: 99 });
    expect(r.json.suggestion_id).toMatch(/^sug_[A-Za-z0-9]{16,}$/);
    expect(r.json.suggestion).toMatch(/^(Hi|Hey|Dear) Tom,/);
    expect(r.json.suggestion).toMatch(/\n\n(Best|Thanks|Cheers|Kind regards|Best regards),?$/);
    expect(r.json.suggestion).not.toMatch(/^subject:/im);
    expect(r.json.confidence).toBeGreaterThan(0);
    expect(r.json.confidence).toBeLessThanOrEqual(1);
  });

  it.each(['linkedin', 'whatsapp'] as const)('suggests a short %s message without a subject line or email sign-off', async (medium) => {
    const t = await newTenant(env);
    const r = await t.call('POST', '/v1/suggest', { body: { reply_received: 'What does it cost?', ...lead, medium } });
    expect(r.status).toBe(200);
    expect(r.json.medium).toBe(medium);
    expect(r.json.suggestion.length).toBeLessThanOrEqual(CAPS[medium]);
    expect(r.json.suggestion).toContain('$2,500');
    expect(r.json.suggestion).not.toMatch(/^subject:/im);
    expect(r.json.suggestion).not.toMatch(/\n(Best|Kind regards),\s*$/);
  });

  it('uses the previous messages and follows the reply intent (ooo gets a note for the return date)', async () => {
    const t = await newTenant(env);
    const r = await t.call('POST', '/v1/suggest', {
      body: {
        reply_received: 'I am out of the office until 3 December with limited access to email.',
        ...lead,
        previous_messages: [{ role: 'outbound', content: 'Would a quick call next week make sense?' }],
      },
    });
    expect(r.status).toBe(200);
    expect(r.json.strategy).toMatch(/ooo|return/);
    expect(r.json.suggestion).toMatch(/3 December|December 3/);
  });

  it("answers in the prospect's language, confirms the slot they proposed and signs with sender_name", async () => {
    const t = await newTenant(env);
    const r = await t.call('POST', '/v1/suggest', {
      body: { reply_received: 'Können wir nächste Woche Dienstag um 14 Uhr telefonieren?', ...lead, lead_name: 'Markus Becker', sender_name: 'Sam Carter' },
    });
    expect(r.status).toBe(200);
    expect(r.json.strategy).toBe('confirm_meeting_time');
    expect(r.json.suggestion).toMatch(/^Hallo Markus,/);
    expect(r.json.suggestion).toContain('um 14:00');
    expect(r.json.suggestion.endsWith('Viele Grüße\nSam Carter')).toBe(true);
  });

  it('accepts null for optional fields (an integration tool sending unmapped fields)', async () => {
    const t = await newTenant(env);
    const r = await t.call('POST', '/v1/suggest', {
      body: { reply_received: 'Interesting, tell me more', lead_name: null, lead_email: null, company: null, tone: null, previous_messages: null, campaign_context: null, sender_name: null },
    });
    expect(r.status).toBe(200);
    expect(r.json.medium).toBe('email');
  });

  it.each<[string, Record<string, unknown>, RegExp]>([
    ['reply_received missing', {}, /^reply_received: /],
    ['reply_received blank', { reply_received: '   ' }, /^reply_received: must not be empty/],
    ['reply_received not a string', { reply_received: 42 }, /^reply_received: /],
    ['medium outside the enum', { reply_received: 'hi', medium: 'sms' }, /^medium: /],
    ['lead_email not an email', { reply_received: 'hi', lead_email: 'tom at acme' }, /^lead_email: /],
    ['11 previous messages', { reply_received: 'hi', previous_messages: Array.from({ length: 11 }, () => ({ role: 'outbound', content: 'x' })) }, /^previous_messages: at most 10 messages/],
    ['a role other than outbound/reply', { reply_received: 'hi', previous_messages: [{ role: 'outbound', content: 'a' }, { role: 'assistant', content: 'b' }] }, /^previous_messages\.1\.role: /],
    ['a message without content', { reply_received: 'hi', previous_messages: [{ role: 'reply' }] }, /^previous_messages\.0\.content: /],
    ['an unknown field', { reply_received: 'hi', temperature: 2 }, /unknown field\(s\) temperature/],
    ['client_id not a uuid', { reply_received: 'hi', client_id: 'acme' }, /^client_id: /],
    ['sender_name an email address', { reply_received: 'hi', sender_name: 'sam@agency.io' }, /^sender_name: a name, not an email address/],
  ])('400 validation_error naming the field: %s, and no credit spent', async (_, body, message) => {
    const t = await newTenant(env);
    const r = await t.call('POST', '/v1/suggest', { body });
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('validation_error');
    expect(r.json.error.message).toMatch(message);
    expect(await creditsLeft(t)).toBe(100);
  });

  it('accepts exactly 10 previous messages', async () => {
    const t = await newTenant(env);
    const previous_messages = Array.from({ length: 10 }, (_, i) => ({ role: i % 2 ? 'reply' : 'outbound', content: `message ${i}` }));
    expect((await t.call('POST', '/v1/suggest', { body: { reply_received: 'ok, when?', previous_messages } })).status).toBe(200);
  });

  it('403 insufficient_scope for a key without suggest, before validation and without spending', async () => {
    const t = await newTenant(env);
    const key = await t.addKey({ scopes: ['leads.read'] });
    const r = await t.call('POST', '/v1/suggest', { key, body: { medium: 'sms' } });
    expect(r.status).toBe(403);
    expect(r.json.error.code).toBe('insufficient_scope');
    expect(await creditsLeft(t, key)).toBe(100);
  });

  it("client_id: a client of another organization, or another client for a client-locked key, is 404 and costs nothing", async () => {
    const t = await newTenant(env);
    const other = await newTenant(env);
    const sibling = await t.addClient('Client B');
    const locked = await t.addKey({ client_id: t.client.id, scopes: ['suggest'] });
    for (const [key, client_id] of [
      [t.key, other.client.id],
      [locked, sibling.id],
      [locked, other.client.id],
    ]) {
      const r = await t.call('POST', '/v1/suggest', { key, body: { reply_received: 'hi there', client_id } });
      expect(r.status).toBe(404);
      expect(r.json.error.code).toBe('not_found');
      expect(r.json.error.message).toBe('client not found');
      expect(await creditsLeft(t, key)).toBe(100);
    }
    expect((await t.call('POST', '/v1/suggest', { key: t.key, body: { reply_received: 'hi there', client_id: sibling.id } })).status).toBe(200);
    expect((await t.call('POST', '/v1/suggest', { key: locked, body: { reply_received: 'hi there', client_id: t.client.id } })).status).toBe(200);
  });

  it('writes assistant.suggested with the suggestion cut to 500 characters, committed with the spent credit', async () => {
    const t = await newTenant(env);
    const long = `Hi Tom,\n\n${'We can certainly help with that. '.repeat(30)}\n\nBest,`;
    steered.set({ kind: 'text', text: long });
    const r = await t.call('POST', '/v1/suggest', { body: { reply_received: MEETING_REPLY, ...lead, medium: 'email' } });
    expect(r.status).toBe(200);
    expect(r.json.suggestion).toBe(long);
    const evts = await suggestedEvents(env, t.org.id);
    expect(evts).toHaveLength(1);
    expect(evts[0].id).toMatch(/^evt_/);
    expect(evts[0].data).toEqual({
      suggestion_id: r.json.suggestion_id,
      suggestion: long.slice(0, 500),
      strategy: r.json.strategy,
      medium: 'email',
      model: 'offline-v1',
      confidence: r.json.confidence,
      lead_email: 'tom@acme.com',
      client_id: null,
      key_id: expect.any(String),
    });
    const [row] = await storedSuggestions(env, t.org.id);
    expect(row).toMatchObject({ id: r.json.suggestion_id, status: 'done', suggestion: long, replyText: MEETING_REPLY, medium: 'email' });
  });

  it('leaves lead_email out of the event when it was not given', async () => {
    const t = await newTenant(env);
    expect((await t.call('POST', '/v1/suggest', { body: { reply_received: 'What does it cost?' } })).status).toBe(200);
    const [evt] = await suggestedEvents(env, t.org.id);
    expect(evt.data).not.toHaveProperty('lead_email');
  });
});
