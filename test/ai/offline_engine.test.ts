import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MONTHS, WEEKDAYS, isBusinessDay } from '../../lib/ai/dates';
import { createOfflineEngine, suggestOffline } from '../../lib/ai/offline_engine';
import { AiEngineError, type Medium, type PreviousMessage, type SuggestInput, type Suggestion } from '../../lib/ai/types';

/** Friday 20 November 2026, 09:00 UTC. */
const NOW = new Date('2026-11-20T09:00:00Z');

const AGENCY =
  'We run done-for-you outbound for B2B SaaS teams: we build the lead lists, write the sequences and send from our own domains, so your reps only take booked meetings. ' +
  'Pricing starts at $2,500/month with no long-term contract. We integrate with HubSpot and Salesforce, so every meeting lands in your CRM. ' +
  'Clients include Ramp, Vanta and Lattice, and most see their first booked meetings within 3 weeks.';
const AUDIT =
  'We help e-commerce brands fix email deliverability and get out of the spam folder. ' +
  'We run a free inbox placement audit that takes about a week and shows exactly where your emails land.';

function run(input: Partial<SuggestInput> & { reply_received: string }, now = NOW): Suggestion {
  return suggestOffline({ campaign_context: AGENCY, ...input }, { learned: [], now });
}

interface FoundSlot { date: Date; weekday: string; time: string }

/** Slots written as "Tuesday 24 November at 10:00" or "Monday 23 November … 10:00 or 14:00". */
function slotsIn(text: string): FoundSlot[] {
  const re = new RegExp(`\\b(${WEEKDAYS.join('|')}) (\\d{1,2}) (${MONTHS.join('|')})(?: at (\\d{2}:\\d{2}))?`, 'g');
  const out: FoundSlot[] = [];
  for (const m of text.matchAll(re)) {
    const date = new Date(Date.UTC(2026, MONTHS.indexOf(m[3]), +m[2]));
    const times = m[4] ? [m[4]] : [...text.slice((m.index ?? 0) + m[0].length).matchAll(/\b(\d{2}:\d{2})\b/g)].slice(0, 2).map((t) => t[1]);
    for (const time of times) out.push({ date, weekday: m[1], time });
  }
  return out;
}

function expectBusinessSlotsAfter(slots: FoundSlot[], after: Date): void {
  for (const s of slots) {
    expect(WEEKDAYS[s.date.getUTCDay()]).toBe(s.weekday); // the weekday name matches the date
    expect(isBusinessDay(s.date)).toBe(true);
    expect(s.date.getTime()).toBeGreaterThan(after.getTime());
  }
}

const CONTRACTION = /\b(I'm|I'll|I'd|I've|you're|you'll|we're|we'll|it's|that's|here's|let's|won't|can't|don't|doesn't|isn't)\b/i;

describe('offline engine: intents', () => {
  it('proposes at least two concrete business-day slots after now for a meeting request, and offers an invite', () => {
    const s = run({ reply_received: 'Sounds interesting — can we set up a call?', lead_name: 'Tom Baker', company: 'Acme' });
    expect(s.strategy).toBe('propose_meeting_times');
    const slots = slotsIn(s.suggestion);
    expect(slots.length).toBeGreaterThanOrEqual(2);
    expectBusinessSlotsAfter(slots, NOW);
    // Friday → the next business days are Monday 23, Tuesday 24, Wednesday 25.
    expect(s.suggestion).toContain('Monday 23 November at 10:00');
    expect(s.suggestion).toMatch(/calendar invite/);
    expect(s.model).toBe('offline-v1');
  });

  it('respects "next week", named weekdays and an afternoon preference', () => {
    const wednesday = new Date('2026-11-18T15:00:00Z');
    const nextWeek = slotsIn(run({ reply_received: "Let's find time for a call next week." }, wednesday).suggestion);
    expect(nextWeek.length).toBeGreaterThanOrEqual(2);
    for (const s of nextWeek) expect(s.date.getTime()).toBeGreaterThanOrEqual(Date.UTC(2026, 10, 23));

    const days = slotsIn(run({ reply_received: "What's the price? I'm free Tuesday or Wednesday for a call." }).suggestion);
    expect(days.map((d) => d.weekday).sort()).toEqual(['Tuesday', 'Wednesday']);

    const pm = slotsIn(run({ reply_received: "yes let's talk, afternoons are best for me", medium: 'whatsapp' }).suggestion);
    for (const s of pm) expect(Number(s.time.slice(0, 2))).toBeGreaterThanOrEqual(12);

    const busy = slotsIn(run({ reply_received: "Happy to chat, but I'm busy Monday." }).suggestion);
    expect(busy.length).toBeGreaterThanOrEqual(2);
    expect(busy.map((s) => s.weekday)).not.toContain('Monday');
  });

  it('schedules after an absence the lead mentions', () => {
    const holiday = run({ reply_received: "I'm on holiday next week but keen to chat after." });
    expect(holiday.strategy).toBe('propose_meeting_times');
    expect(holiday.suggestion).toMatch(/when you're back/);
    for (const s of slotsIn(holiday.suggestion)) expect(s.date.getTime()).toBeGreaterThanOrEqual(Date.UTC(2026, 10, 30));
    const until = slotsIn(run({ reply_received: 'Away until 7 December, but happy to talk after that.' }).suggestion);
    expect(until.length).toBeGreaterThanOrEqual(2);
    for (const s of until) expect(s.date.getTime()).toBeGreaterThanOrEqual(Date.UTC(2026, 11, 7));
  });

  it('confirms a time the lead proposed instead of offering new ones', () => {
    const s = run({ reply_received: 'Thursday at 2pm works for me.', lead_name: 'Sarah' });
    expect(s.strategy).toBe('confirm_meeting_time');
    expect(s.suggestion).toContain('Thursday 26 November at 14:00');
    expect(s.suggestion).toMatch(/invite/);
    const other = run({ reply_received: "I'm out Thursday, but Friday at 3pm works" });
    expect(other.strategy).toBe('confirm_meeting_time');
    expect(other.suggestion).toContain('Friday 27 November at 15:00');
    expect(other.suggestion).not.toContain('Thursday');
  });

  it('answers a pricing question with the pricing from the campaign context', () => {
    const s = run({ reply_received: 'What does this cost?', lead_name: 'Mark', company: 'Initech' });
    expect(s.strategy).toBe('answer_pricing_question');
    expect(s.suggestion).toMatch(/pricing/i);
    expect(s.suggestion).toContain('$2,500/month');
    expect(s.suggestion).toContain('Initech');
  });

  it('does not invent a price when the context has none, and does not re-ask a known team size', () => {
    const s = run({ reply_received: 'How much do you charge?', campaign_context: AUDIT, company: 'Lumen' });
    expect(s.suggestion).not.toMatch(/[$€£]\s?\d/);
    expect(s.suggestion).toMatch(/how many people/i);
    const known = run({
      reply_received: 'What would pricing look like?',
      campaign_context: AUDIT,
      previous_messages: [{ role: 'reply', content: 'We are a team of 12 marketers.' }],
    });
    expect(known.suggestion).not.toMatch(/how many people/i);
  });

  it('answers integration questions honestly from the context', () => {
    const yes = run({ reply_received: 'Does it integrate with HubSpot?' });
    expect(yes.strategy).toBe('answer_integration_question');
    expect(yes.suggestion).toMatch(/Yes — we integrate with HubSpot/);
    const other = run({ reply_received: "We're on Pipedrive — does that work?" });
    expect(other.suggestion).toMatch(/confirm exactly how it works with Pipedrive/);
    expect(other.suggestion).not.toMatch(/Yes —/);
  });

  it('answers "how does it work" and "who else uses it" from the context', () => {
    const how = run({ reply_received: 'How does it work?' });
    expect(how.strategy).toBe('answer_how_it_works');
    expect(how.suggestion).toContain('we build the lead lists');
    const proof = run({ reply_received: 'Who else uses this?' });
    expect(proof.strategy).toBe('share_customer_proof');
    expect(proof.suggestion).toMatch(/Ramp, Vanta and Lattice/);
  });

  it('sends a summary plus a soft next step for "send more info", and skips the call when asked to', () => {
    const s = run({ reply_received: 'Can you send me some more info?', company: 'Vertex' });
    expect(s.strategy).toBe('share_info_soft_cta');
    expect(s.suggestion).toContain('We run done-for-you outbound for B2B SaaS teams');
    expect(s.suggestion).toMatch(/15-minute call/);
    const noCall = run({ reply_received: 'Just send me the details, no call please', medium: 'whatsapp' });
    expect(noCall.suggestion).not.toMatch(/\bcall\b/i);
  });

  it('acknowledges "next quarter" with a concrete follow-up date', () => {
    const s = run({ reply_received: 'Not right now — reach out next quarter.', lead_name: 'David' });
    expect(s.strategy).toBe('schedule_later_follow_up');
    expect(s.suggestion).toContain('Tuesday 5 January');
    expect(s.suggestion).not.toMatch(/\?/);
    const weeks = run({ reply_received: 'Busy launching, try me again in a few weeks.' });
    expect(weeks.suggestion).toContain('Friday 11 December');
  });

  it('thanks a referral and asks for an intro to the named person', () => {
    const s = run({ reply_received: "I'm not the right person — talk to Jane Smith, our Head of Growth.", lead_name: 'Tom' });
    expect(s.strategy).toBe('ask_for_referral_intro');
    expect(s.suggestion).toMatch(/Thanks for pointing me/);
    expect(s.suggestion).toMatch(/introducing me to Jane Smith \(your Head of Growth\)/);
    const cc = run({ reply_received: 'Looping in Priya who runs marketing here.', lead_name: 'Sam' });
    expect(cc.strategy).toBe('follow_up_with_referral');
    expect(cc.suggestion).toMatch(/Priya, nice to meet you/);
  });

  it('explains the outreach transparently for "who are you / how did you get my email"', () => {
    const s = run({ reply_received: 'Who are you and how did you get my email?', company: 'Danube Freight' });
    expect(s.strategy).toBe('explain_outreach');
    expect(s.suggestion).toMatch(/publicly available/);
    expect(s.suggestion).toContain('Danube Freight');
    expect(s.suggestion).toMatch(/won't contact you again/);
  });

  it('acknowledges an out-of-office and references the return date', () => {
    const s = run({ reply_received: 'Thanks for your message. I am out of the office and back on 3 December.', lead_name: 'Tom' });
    expect(s.strategy).toBe('acknowledge_ooo');
    expect(s.suggestion).toContain('Thursday 3 December');
    expect(slotsIn(s.suggestion).filter((x) => x.time)).toHaveLength(0);
    const noDate = run({ reply_received: 'I am currently on annual leave with limited access to email.' });
    expect(noDate.suggestion).toMatch(/once you're back\./);
  });

  it('closes politely with no pushback, and confirms an unsubscribe with no call to action', () => {
    const no = run({ reply_received: 'Not interested, thanks.', lead_name: 'Greg', company: 'Fernway' });
    expect(no.strategy).toBe('polite_close');
    expect(no.suggestion).not.toMatch(/\?|call|meeting|invite/i);
    const covered = run({ reply_received: 'We already have an agency that handles this.' });
    expect(covered.strategy).toBe('polite_close');
    expect(covered.suggestion).toMatch(/well covered already/);
    for (const reply of ['Please remove me from your list.', 'Unsubscribe', 'STOP']) {
      const s = run({ reply_received: reply, lead_name: 'Karl' });
      expect(s.strategy).toBe('confirm_unsubscribe');
      expect(s.suggestion).toMatch(/won't hear from us again/);
      expect(s.suggestion).not.toMatch(/\?|\bcall\b|invite|let me know|reply here|Monday|Tuesday/i);
    }
  });

  it('handles "let me check with my team", "what makes you different" and "how long until results"', () => {
    const review = run({ reply_received: 'Let me run this by my cofounder and get back to you.' });
    expect(review.strategy).toBe('support_internal_review');
    expect(review.suggestion).toContain('Friday 27 November'); // a week later, on a business day
    expect(review.suggestion).not.toMatch(/\?/);
    const diff = run({ reply_received: 'What makes you different from other agencies?' });
    expect(diff.strategy).toBe('answer_differentiation_question');
    expect(diff.suggestion).toContain('Ramp, Vanta and Lattice');
    const timeline = run({ reply_received: 'How long before we would see results?', medium: 'whatsapp' });
    expect(timeline.strategy).toBe('answer_timeline_question');
    expect(timeline.suggestion).toMatch(/most see their first booked meetings within 3 weeks/);
  });

  it('asks for the email of someone the lead forwarded to, and uses a month-only return', () => {
    const fwd = run({ reply_received: 'I forwarded your email to Mark Jones, he handles partnerships.' });
    expect(fwd.strategy).toBe('ask_for_referral_intro');
    expect(fwd.suggestion).toMatch(/passing this on to Mark Jones.*share Mark's email/s);
    const ooo = run({ reply_received: "I'm on parental leave until March. Please contact john@acme.com in the meantime." });
    expect(ooo.strategy).toBe('acknowledge_ooo');
    expect(ooo.suggestion).toMatch(/back in March/);
  });

  it('is less confident when the context cannot answer the question', () => {
    const answered = run({ reply_received: 'Does it integrate with HubSpot?' });
    const hedged = run({ reply_received: 'Does it integrate with HubSpot?', campaign_context: AUDIT });
    expect(hedged.suggestion).toMatch(/confirm/);
    expect(hedged.confidence).toBeLessThan(answered.confidence);
  });

  it('only reads the new text of a reply, not the quoted thread', () => {
    const s = run({ reply_received: 'Not interested.\n\nOn Mon, 16 Nov 2026 at 09:12, Sam <sam@agency.io> wrote:\n> Would you be open to a quick call next week?' });
    expect(s.strategy).toBe('polite_close');
  });

  it('has low confidence for an unclear reply and higher for a clear one', () => {
    const unclear = run({ reply_received: 'ok' });
    expect(unclear.strategy).toBe('clarify_next_step');
    expect(unclear.confidence).toBeLessThan(0.5);
    const clear = run({ reply_received: 'Yes, please send me a calendar invite for a call.' });
    expect(clear.confidence).toBeGreaterThan(unclear.confidence + 0.3);
    for (const s of [unclear, clear]) expect(s.confidence).toBeGreaterThanOrEqual(0);
  });
});

describe('offline engine: personalisation, medium and tone', () => {
  it('greets by first name, never by the email address', () => {
    expect(run({ reply_received: 'Happy to chat.', lead_name: 'Jane Doe' }).suggestion).toMatch(/^Hi Jane,/);
    const asEmail = run({ reply_received: 'Happy to chat.', lead_name: 'jane.doe@acme.com', lead_email: 'jane.doe@acme.com' });
    expect(asEmail.suggestion).not.toContain('jane.doe');
    expect(asEmail.suggestion).toMatch(/^Hi there,/);
    const none = run({ reply_received: 'Happy to chat.', lead_email: 'jane.doe@acme.com', tone: 'formal' });
    expect(none.suggestion).not.toContain('@');
    expect(none.suggestion).toMatch(/^Hello,/);
  });

  it('email has greeting, body and sign-off and no subject line', () => {
    const s = run({ reply_received: 'Can we talk next week?', lead_name: 'Tom' });
    const lines = s.suggestion.split('\n');
    expect(lines[0]).toBe('Hi Tom,');
    expect(lines[lines.length - 1]).toBe('Best,');
    expect(s.suggestion).not.toMatch(/subject:/i);
  });

  it('keeps linkedin ≤ 400 and whatsapp ≤ 300 chars with no subject or formal sign-off', () => {
    const long = `${AGENCY} ${AGENCY}`;
    const replies = ['Can you send me some more info?', 'How does it work and what does it cost?', 'Happy to chat, what times work?', 'Who are you?', 'Not interested'];
    for (const medium of ['linkedin', 'whatsapp'] as Medium[]) {
      for (const reply of replies) {
        for (const tone of ['formal', 'casual', undefined]) {
          const s = run({ reply_received: reply, medium, tone, lead_name: 'Priya', company: 'Northwind', campaign_context: long });
          expect(s.medium).toBe(medium);
          expect(s.suggestion.length).toBeLessThanOrEqual(medium === 'linkedin' ? 400 : 300);
          expect(s.suggestion).not.toMatch(/subject:|\n(Best|Kind regards|Cheers|Thanks),\s*$/i);
        }
      }
    }
  });

  it('follows the tone: formal, casual, direct', () => {
    const formal = run({ reply_received: 'Could you please share your pricing?', lead_name: 'Dr. Maria Rossi', tone: 'formal' });
    expect(formal.suggestion).toMatch(/^Dear Maria,/);
    expect(formal.suggestion).not.toMatch(CONTRACTION);
    expect(formal.suggestion).toMatch(/Kind regards,$/);

    const casual = run({ reply_received: 'Happy to chat, what times work?', lead_name: 'Priya', tone: 'casual' });
    expect(casual.suggestion).toMatch(/^Hey Priya,/);
    expect(casual.suggestion).toMatch(CONTRACTION);

    const neutral = run({ reply_received: 'Interested. When can we talk?', lead_name: 'Nina' });
    const direct = run({ reply_received: 'Interested. When can we talk?', lead_name: 'Nina', tone: 'direct' });
    expect(direct.suggestion.length).toBeLessThan(neutral.suggestion.length);
    expect(direct.suggestion.match(/\?/g)).toHaveLength(1);
  });

  it('uses previous messages: the last offer, and does not re-offer rejected slots', () => {
    const prev: PreviousMessage[] = [{ role: 'outbound', content: 'Hi Grace, a chunk of your promo emails land in spam. Happy to send over the inbox placement report if useful?' }];
    const s = run({ reply_received: "Sure, send it over and I'll take a look.", campaign_context: AUDIT, previous_messages: prev });
    expect(s.suggestion).toMatch(/inbox placement report I mentioned/);

    const offered = 'Would Monday 23 November at 10:00, Tuesday 24 November at 14:00 or Wednesday 25 November at 11:30 work for you?';
    const again = run({ reply_received: 'None of those work, sorry — any other days?', previous_messages: [{ role: 'outbound', content: offered }] });
    expect(again.strategy).toBe('propose_meeting_times');
    const dates = slotsIn(again.suggestion).map((x) => x.date.getUTCDate());
    expect(dates.length).toBeGreaterThanOrEqual(2);
    for (const d of dates) expect([23, 24, 25]).not.toContain(d);

    const call = run({ reply_received: 'Sure, works for me.', previous_messages: [{ role: 'outbound', content: 'Would you be open to a 20-minute call next week?' }] });
    expect(call.suggestion).toMatch(/the 20-minute call I mentioned/);
  });

  it('is deterministic for the same input and now, and moves slots with now', () => {
    const input = { reply_received: 'Can we set up a call?', lead_name: 'Tom' };
    expect(run(input)).toEqual(run(input));
    expect(run(input, new Date('2026-11-23T09:00:00Z')).suggestion).not.toBe(run(input).suggestion);
  });

  it('the AiEngine wrapper honours an aborted signal', async () => {
    const engine = createOfflineEngine();
    const ok = await engine.suggest({ reply_received: 'Can we talk?' }, { learned: [], now: NOW });
    expect(ok.medium).toBe('email');
    const ac = new AbortController();
    ac.abort();
    await expect(engine.suggest({ reply_received: 'Can we talk?' }, { learned: [], now: NOW, signal: ac.signal })).rejects.toBeInstanceOf(AiEngineError);
  });
});

describe('offline engine: eval fixture', () => {
  const fixture = JSON.parse(readFileSync(new URL('../fixtures/suggest_cases.json', import.meta.url), 'utf8')) as {
    now: string; contexts: Record<string, string>; cases: Array<{ id: string; reply: string; lead_name?: string; lead_email?: string; company?: string; context?: string; medium?: Medium; tone?: string; previous?: PreviousMessage[] }>;
  };
  const results = fixture.cases.map((c) => ({
    c,
    s: suggestOffline(
      { reply_received: c.reply, lead_name: c.lead_name, lead_email: c.lead_email, company: c.company, campaign_context: c.context ? fixture.contexts[c.context] : undefined, medium: c.medium, tone: c.tone, previous_messages: c.previous },
      { learned: [], now: new Date(fixture.now) },
    ),
  }));

  it('covers ≥ 24 varied cases: every classification, all media, several tones', () => {
    expect(fixture.cases.length).toBeGreaterThanOrEqual(24);
    expect(new Set(fixture.cases.map((c) => c.medium ?? 'email'))).toEqual(new Set(['email', 'linkedin', 'whatsapp']));
    expect(new Set(fixture.cases.map((c) => c.tone).filter(Boolean)).size).toBeGreaterThanOrEqual(4);
    expect(new Set(results.map((r) => r.s.strategy.replace(/\+learned$/, ''))).size).toBeGreaterThanOrEqual(12);
  });

  it('every draft is well-formed for its medium', () => {
    for (const { c, s } of results) {
      expect(s.suggestion.length, c.id).toBeGreaterThan(20);
      expect(s.confidence, c.id).toBeGreaterThanOrEqual(0);
      expect(s.confidence, c.id).toBeLessThanOrEqual(1);
      expect(s.suggestion, c.id).not.toMatch(/subject:|undefined|null|\{|\}/i);
      if (c.lead_email) expect(s.suggestion, c.id).not.toContain(c.lead_email);
      if (s.medium === 'linkedin') expect(s.suggestion.length, c.id).toBeLessThanOrEqual(400);
      if (s.medium === 'whatsapp') expect(s.suggestion.length, c.id).toBeLessThanOrEqual(300);
      for (const slot of slotsIn(s.suggestion)) expect(WEEKDAYS[slot.date.getUTCDay()], c.id).toBe(slot.weekday);
    }
  });
});
