// POST /v1/suggest/feedback and learning: an edited version is stored per client and medium, and later
// suggestions for similar replies use it (and only those, and only for that client and medium).
import { distance } from 'fastest-levenshtein';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { newTenant, type Tenant } from '../helpers/tenant';
import { keyAt } from './send_helpers';
import { CONTEXT, creditsLeft, MEETING_REPLY, storedSuggestions } from './ai_helpers';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

const TOM = { reply_received: MEETING_REPLY, lead_name: 'Tom Baker', company: 'Acme', campaign_context: CONTEXT };
const JANE = { reply_received: 'Happy to chat next week — when works for you?', lead_name: 'Jane Doe', company: 'Globex', campaign_context: CONTEXT };
const UNRELATED = { reply_received: 'Who are you and how did you get my email?', lead_name: 'Jane Doe', company: 'Globex', campaign_context: CONTEXT };

/** What an SDR did to the draft for Tom before sending it: their greeting, a shorter ask, their sign-off. */
const humanEdit = (draft: string) =>
  draft
    .replace(/^(Hi|Hey|Dear) Tom,/, 'Hey Tom,')
    .replace('a quick call', 'a 15-minute call')
    .replace(/\n\n(Best|Thanks|Cheers|Kind regards|Best regards),?$/, '\n\nLooking forward to it, Tom!\n\nCheers,\nSam');

const suggest = async (t: Tenant, body: Record<string, unknown>, key = t.key) => {
  const r = await t.call('POST', '/v1/suggest', { key, body });
  if (r.status !== 200) throw new Error(`suggest: ${r.status} ${r.text}`);
  return r.json as { suggestion_id: string; suggestion: string; strategy: string; confidence: number; medium: string };
};
const feedback = (t: Tenant, body: Record<string, unknown>, key = t.key) => t.call('POST', '/v1/suggest/feedback', { key, body });

/** Suggests for Tom and sends back the human's edit of it; returns the feedback answer. */
async function teach(t: Tenant, key: string, extra: Record<string, unknown> = {}, by: 'id' | 'text' = 'id') {
  const s = await suggest(t, { ...TOM, ...extra }, key);
  const edited = humanEdit(s.suggestion);
  expect(edited).not.toBe(s.suggestion);
  const ref = by === 'id' ? { suggestion_id: s.suggestion_id } : { original_suggestion: s.suggestion };
  const r = await feedback(t, { accepted: true, ...ref, edited_version: edited }, key);
  expect(r.status).toBe(200);
  return { r, s, edited };
}

describe('learning from feedback', () => {
  it('a suggestion changes after feedback with an edited version; an unrelated reply does not', async () => {
    const t = await newTenant(env);
    const janeBefore = await suggest(t, JANE);
    const unrelatedBefore = await suggest(t, UNRELATED);
    const { r, s, edited } = await teach(t, t.key);
    expect(r.json).toEqual({ received: true, learned: true, medium: 'email', edit_distance: distance(s.suggestion, edited) });

    const janeAfter = await suggest(t, JANE);
    expect(janeAfter.suggestion).not.toBe(janeBefore.suggestion);
    expect(janeAfter.strategy).toBe(`${janeBefore.strategy}+learned`);
    expect(janeAfter.suggestion).toMatch(/^Hey Jane,/);
    expect(janeAfter.suggestion).toContain('Cheers,\nSam');
    expect(janeAfter.suggestion).not.toMatch(/Tom|Acme/);

    const unrelatedAfter = await suggest(t, UNRELATED);
    expect(unrelatedAfter.suggestion).toBe(unrelatedBefore.suggestion);
    expect(unrelatedAfter.strategy).toBe(unrelatedBefore.strategy);
  });

  it('finds the suggestion by its text when no suggestion_id is given', async () => {
    const t = await newTenant(env);
    const { r } = await teach(t, t.key, {}, 'text');
    expect(r.json.learned).toBe(true);
    expect((await suggest(t, JANE)).strategy).toMatch(/\+learned$/);
  });

  it('keeps lessons per medium: an email edit does not change a LinkedIn message', async () => {
    const t = await newTenant(env);
    const before = await suggest(t, { ...JANE, medium: 'linkedin' });
    await teach(t, t.key);
    const after = await suggest(t, { ...JANE, medium: 'linkedin' });
    expect(after.suggestion).toBe(before.suggestion);
    expect(after.strategy).not.toMatch(/learned/);
  });

  it('keeps lessons per client: another client, the organization as a whole and another organization are untouched', async () => {
    const t = await newTenant(env);
    const clientB = await t.addClient('Client B');
    const lockedA = await t.addKey({ client_id: t.client.id, scopes: ['suggest'] });
    const lockedB = await t.addKey({ client_id: clientB.id, scopes: ['suggest'] });
    const other = await newTenant(env);
    const { s } = await teach(t, lockedA);

    expect((await suggest(t, JANE, lockedA)).strategy).toMatch(/\+learned$/);
    expect((await suggest(t, { ...JANE, client_id: t.client.id })).strategy).toMatch(/\+learned$/);
    expect((await suggest(t, JANE, lockedB)).strategy).not.toMatch(/learned/);
    expect((await suggest(t, JANE)).strategy).not.toMatch(/learned/);
    expect((await suggest(t, { ...JANE, client_id: clientB.id })).strategy).not.toMatch(/learned/);
    expect((await suggest(other, JANE)).strategy).not.toMatch(/learned/);

    // Client B's key can neither reference client A's suggestion nor teach client A: 404, existence not confirmed.
    for (const body of [
      { accepted: false, suggestion_id: s.suggestion_id, edited_version: 'Hi' },
      { accepted: true, client_id: t.client.id },
    ]) {
      const r = await feedback(t, body, lockedB);
      expect(r.status).toBe(404);
      expect(r.json.error.code).toBe('not_found');
    }
    // Nor can another organization, even with its full-scope key.
    const r = await feedback(other, { accepted: true, suggestion_id: s.suggestion_id });
    expect(r.status).toBe(404);
    // Text lookup is tenant-filtered too: another organization sending the same text learns nothing.
    const byText = await feedback(other, { accepted: true, original_suggestion: s.suggestion, edited_version: humanEdit(s.suggestion) });
    expect(byText.status).toBe(200);
    expect(byText.json.learned).toBe(false);
  });

  it('an edited send through governed sending also teaches the suggestions of that client', async () => {
    const t = await newTenant(env);
    const key = await keyAt(t, 2);
    const { reply } = await t.reply({ body: MEETING_REPLY, from_name: 'Tom Baker' });
    const s = await suggest(t, { ...TOM, client_id: t.client.id });
    const sent = await t.call('POST', `/v1/replies/${reply.id}/send`, { key, body: { body: humanEdit(s.suggestion), original_suggestion: s.suggestion, edited: true } });
    expect(sent.status).toBe(200);
    expect(sent.json.learned).toBe(true);
    expect((await suggest(t, { ...JANE, client_id: t.client.id })).strategy).toMatch(/\+learned$/);
  });
});

describe('POST /v1/suggest/feedback', () => {
  it('accepted alone: received, nothing learned, distance 0, no credit spent', async () => {
    const t = await newTenant(env);
    const r = await feedback(t, { accepted: true });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ received: true, learned: false, medium: 'email', edit_distance: 0 });
    expect(await creditsLeft(t)).toBe(100);
  });

  it('records acceptance and the edit distance on the stored suggestion; an unedited version teaches nothing', async () => {
    const t = await newTenant(env);
    const s = await suggest(t, { ...TOM, medium: 'whatsapp' });
    const r = await feedback(t, { accepted: true, suggestion_id: s.suggestion_id, edited_version: s.suggestion });
    expect(r.json).toEqual({ received: true, learned: false, medium: 'whatsapp', edit_distance: 0 });
    const [row] = await storedSuggestions(env, t.org.id);
    expect(row).toMatchObject({ accepted: true, editDistance: 0 });
    expect(row.feedbackAt).not.toBeNull();
  });

  it('a suggestion the service never made: distance computed, nothing learned (no reply to learn it for)', async () => {
    const t = await newTenant(env);
    const r = await feedback(t, { accepted: false, original_suggestion: 'Hi Tom, call Monday?', edited_version: 'Hey Tom, call Tuesday?', medium: 'linkedin' });
    expect(r.json).toEqual({ received: true, learned: false, medium: 'linkedin', edit_distance: distance('Hi Tom, call Monday?', 'Hey Tom, call Tuesday?') });
  });

  it('a rejected suggestion rewritten by the human is still a lesson', async () => {
    const t = await newTenant(env);
    const s = await suggest(t, TOM);
    const r = await feedback(t, { accepted: false, suggestion_id: s.suggestion_id, edited_version: humanEdit(s.suggestion) });
    expect(r.json.learned).toBe(true);
  });

  it('404 for an unknown suggestion_id; 400 when medium contradicts the suggestion', async () => {
    const t = await newTenant(env);
    const unknown = await feedback(t, { accepted: true, suggestion_id: 'sug_doesnotexist' });
    expect(unknown.status).toBe(404);
    expect(unknown.json.error).toEqual({ code: 'not_found', message: 'suggestion not found' });
    const s = await suggest(t, TOM);
    const mismatch = await feedback(t, { accepted: true, suggestion_id: s.suggestion_id, medium: 'linkedin' });
    expect(mismatch.status).toBe(400);
    expect(mismatch.json.error.message).toMatch(/^medium: /);
  });

  it.each<[string, Record<string, unknown>, RegExp]>([
    ['accepted missing', { edited_version: 'x' }, /^accepted: /],
    ['accepted not a boolean', { accepted: 'yes' }, /^accepted: /],
    ['medium outside the enum', { accepted: true, medium: 'sms' }, /^medium: /],
    ['client_id not a uuid', { accepted: true, client_id: 'acme' }, /^client_id: /],
    ['an unknown field', { accepted: true, rating: 5 }, /unknown field\(s\) rating/],
  ])('400 validation_error naming the field: %s', async (_, body, message) => {
    const t = await newTenant(env);
    const r = await feedback(t, body);
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('validation_error');
    expect(r.json.error.message).toMatch(message);
  });
});
