import { describe, expect, it } from 'vitest';
import { bestExample, jaccard, parseMessage, SIMILARITY_THRESHOLD } from '../../lib/ai/learn';
import { suggestOffline } from '../../lib/ai/offline_engine';
import type { LearnedExample, SuggestInput, Suggestion } from '../../lib/ai/types';

const NOW = new Date('2026-11-20T09:00:00Z');
const CONTEXT = 'We run done-for-you outbound for B2B SaaS teams. Pricing starts at $2,500/month with no long-term contract. Clients include Ramp and Vanta.';

function run(input: Partial<SuggestInput> & { reply_received: string }, learned: LearnedExample[] = []): Suggestion {
  return suggestOffline({ campaign_context: CONTEXT, ...input }, { learned, now: NOW });
}

/** What a human did to the engine's draft for Tom at Acme before sending it. */
function humanEdit(draft: string): string {
  return draft
    .replace('Hi Tom,', 'Hey Tom,')
    .replace(' If none of those work, just send me a couple of times that do.', '')
    .replace('happy to set up a quick call.', 'happy to set up a 15-minute call.')
    .replace('\n\nBest,', '\n\nLooking forward to it, Tom!\n\nCheers,\nSam');
}

const TOM_REPLY = 'Sounds good, can we do a call next week?';
const tomDraft = run({ reply_received: TOM_REPLY, lead_name: 'Tom Baker', company: 'Acme' }).suggestion;
const meetingExample: LearnedExample = { replyText: TOM_REPLY, classification: 'hot', original: tomDraft, edited: humanEdit(tomDraft), medium: 'email' };

describe('learning from edited drafts', () => {
  it('replays a human edit on a similar reply for another lead', () => {
    const input = { reply_received: 'Happy to chat next week — when works for you?', lead_name: 'Jane Doe', company: 'Globex' };
    const before = run(input);
    const after = run(input, [meetingExample]);
    expect(after.suggestion).not.toBe(before.suggestion);
    expect(after.strategy).toBe('propose_meeting_times+learned');
    // greeting style adopted, with this lead's name
    expect(after.suggestion).toMatch(/^Hey Jane,/);
    // a sentence the human removed is dropped
    expect(before.suggestion).toContain('If none of those work');
    expect(after.suggestion).not.toContain('If none of those work');
    // a word-level rewrite is replayed inside the sentence
    expect(after.suggestion).toContain('happy to set up a 15-minute call.');
    // an added sentence is included, moved over to this lead
    expect(after.suggestion).toContain('Looking forward to it, Jane!');
    expect(after.suggestion).not.toMatch(/Tom|Acme/);
    // the sign-off the human used is adopted
    expect(after.suggestion.endsWith('Cheers,\nSam')).toBe(true);
    // the rest of the draft is still this lead's: fresh slots and company
    expect(after.suggestion).toContain('Globex');
    expect(after.suggestion).toContain('Monday 23 November at 10:00');
    expect(after.confidence).toBeGreaterThanOrEqual(before.confidence);
  });

  it('leaves an unrelated reply untouched', () => {
    for (const reply of ['Not interested, thanks.', 'Who are you and how did you get my email?', 'I am out of the office until 3 December.']) {
      const input = { reply_received: reply, lead_name: 'Jane Doe', company: 'Globex' };
      const before = run(input);
      const after = run(input, [meetingExample]);
      expect(after).toEqual(before);
    }
  });

  it('only learns from examples of the same medium', () => {
    const input = { reply_received: 'Happy to chat next week — when works for you?', lead_name: 'Jane', medium: 'linkedin' as const };
    expect(run(input, [meetingExample])).toEqual(run(input));
  });

  it('matches a paraphrase of the same specific intent (linkedin pricing)', () => {
    const base = { medium: 'linkedin' as const, company: 'Acme' };
    const original = run({ ...base, reply_received: 'How much is it?', lead_name: 'Tom' }).suggestion;
    const edited = original.replace('Worth a quick call', 'Worth a 15-min call');
    const ex: LearnedExample = { replyText: 'How much is it?', original, edited, medium: 'linkedin' };
    const after = run({ ...base, reply_received: 'What does it cost?', lead_name: 'Jane', company: 'Globex' }, [ex]);
    expect(after.strategy).toBe('answer_pricing_question+learned');
    expect(after.suggestion).toContain('Worth a 15-min call');
    expect(after.suggestion.startsWith('Hi Jane, ')).toBe(true);
  });

  it("swaps the old lead's company in an added style sentence, and carries no fact, unknown name or date over", () => {
    const original = run({ reply_received: 'What does it cost?', lead_name: 'Tom', company: 'Acme' }).suggestion;
    const edited = original.replace(
      'Pricing starts at $2,500/month with no long-term contract.',
      'Pricing starts at $2,500/month with no long-term contract. Happy to show you what this looks like for Acme. Teams like Acme usually start with a 3-month pilot. We also have a Zendesk partnership. I can do Tuesday 24 November too.',
    );
    const ex: LearnedExample = { replyText: 'What does it cost?', original, edited, medium: 'email' };
    const after = run({ reply_received: 'How much is this?', lead_name: 'Jane', company: 'Globex' }, [ex]).suggestion;
    expect(after).toContain('Happy to show you what this looks like for Globex.');
    // Until issue 12 the pilot sentence was carried over with the company swapped: a number another
    // prospect was given is a fact about that deal, not a way of writing.
    expect(after).not.toMatch(/Acme|Zendesk|I can do Tuesday|3-month pilot/);
  });

  it("never carries an edit's specifics to another prospect: events, names, numbers (issue 12)", () => {
    const tomDraft = run({ reply_received: TOM_REPLY, lead_name: 'Tom Baker', company: 'Acme' }).suggestion;
    const edited = tomDraft
      .replace('Hi Tom,\n\n', 'Hi Tom,\n\nCongratulations on the new contract! Hope the office move went smoothly.\n\n')
      .replace('\n\nBest,', '\n\nFor Acme I can hold $1,900/month until Friday. Looking forward to it!\n\nBest,');
    const ex: LearnedExample = { replyText: TOM_REPLY, original: tomDraft, edited, medium: 'email' };
    const after = run({ reply_received: 'Interesting. Could we talk sometime next week?', lead_name: 'Priya', company: 'Northwind' }, [ex]);
    expect(after.strategy).toBe('propose_meeting_times+learned');
    expect(after.suggestion).toContain('Looking forward to it!');
    expect(after.suggestion).not.toMatch(/contract|Congratulations|office move|1,900|Acme|Tom/);
  });

  it('only replays edits written in the language of the draft', () => {
    const german = { reply_received: 'Gerne, lassen Sie uns nächste Woche telefonieren.', lead_name: 'Lena Fischer', company: 'Fischer Digital' };
    expect(run(german, [meetingExample])).toEqual(run(german));
    const deOriginal = run({ reply_received: 'Klingt gut, können wir nächste Woche sprechen?', lead_name: 'Thomas', company: 'Müller AG' }).suggestion;
    const deEdited = deOriginal.replace('\n\nViele Grüße', '\n\nSchön, dass wir uns auf der DMEXCO kennengelernt haben! Ich freue mich auf unser Gespräch.\n\nViele Grüße');
    const deExample: LearnedExample = { replyText: 'Klingt gut, können wir nächste Woche sprechen?', original: deOriginal, edited: deEdited, medium: 'email' };
    const after = run(german, [deExample]).suggestion;
    expect(after).toContain('Ich freue mich auf unser Gespräch.');
    expect(after).not.toMatch(/DMEXCO|Thomas|Müller/);
  });

  it('takes only greeting and sign-off from a wholesale rewrite', () => {
    const original = run({ reply_received: 'Not interested.', lead_name: 'Tom', company: 'Acme' }).suggestion;
    const edited = 'Hello Tom,\n\nNo problem at all. Good luck with the launch next month, and say hi to the team.\n\nWarm regards,\nSam';
    const ex: LearnedExample = { replyText: 'Not interested.', original, edited, medium: 'email' };
    const after = run({ reply_received: 'No thanks, not interested.', lead_name: 'Jane', company: 'Globex' }, [ex]).suggestion;
    expect(after).toMatch(/^Hello Jane,/);
    expect(after).toMatch(/Warm regards,\nSam$/);
    expect(after).not.toMatch(/launch next month/);
    expect(after).toMatch(/I won't follow up/);
  });

  it('picks the most similar example and ignores ones below the threshold', () => {
    const intentOf = (t: string) => (/cost|price|much/i.test(t) ? 'pricing' : /call|chat/i.test(t) ? 'meeting' : 'unclear');
    const a: LearnedExample = { replyText: 'Can we do a call next week?', original: 'a', edited: 'b', medium: 'email' };
    const b: LearnedExample = { replyText: 'What does it cost?', original: 'a', edited: 'b', medium: 'email' };
    const unchanged: LearnedExample = { replyText: 'What does it cost?', original: 'same', edited: 'same', medium: 'email' };
    expect(bestExample('How much is it per month?', 'pricing', 'email', [a, unchanged, b], intentOf)?.example).toBe(b);
    expect(bestExample('ok', 'unclear', 'email', [a, b], intentOf)).toBeNull();
    expect(jaccard('can we do a call next week', 'a call next week works')).toBeGreaterThan(SIMILARITY_THRESHOLD);
    expect(jaccard('not interested', 'send pricing')).toBe(0);
  });

  it('parses greeting, paragraphs and sign-off of a sent message', () => {
    const p = parseMessage('Hey Tom,\n\nFirst line. Second line?\n\nThird.\n\nCheers,\nSam');
    expect(p.greeting).toBe('Hey Tom,');
    expect(p.signOff).toBe('Cheers,\nSam');
    expect(p.sentences).toEqual([
      { text: 'First line.', para: 0 },
      { text: 'Second line?', para: 0 },
      { text: 'Third.', para: 1 },
    ]);
    expect(parseMessage('Hi Tom, thanks for this. Talk soon').greeting).toBe('Hi Tom,');
  });
});
