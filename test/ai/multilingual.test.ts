// The pieces of a draft in the prospect's language: which language, which register, which day and time,
// which price, who signs, and how it closes.
import { describe, expect, it } from 'vitest';
import { formatDay, formatSlot, joinOr } from '../../lib/ai/dates';
import { chooseLanguage, detectLanguage, registerFor } from '../../lib/ai/lang';
import { suggestOffline } from '../../lib/ai/offline_engine';
import { parsePrice } from '../../lib/ai/price';
import { senderOf, signatureName } from '../../lib/ai/signature';
import type { SuggestInput, Suggestion } from '../../lib/ai/types';
import { dayMeant, offeredSlots, pickOffered, readWhen } from '../../lib/ai/when';

/** Friday 20 November 2026, 09:00 UTC. */
const NOW = new Date('2026-11-20T09:00:00Z');
const AGENCY = 'We run done-for-you outbound for B2B SaaS teams. Pricing starts at $2,500/month with no long-term contract. We integrate with HubSpot and Salesforce. Clients include Ramp, Vanta and Lattice.';
const run = (input: Partial<SuggestInput> & { reply_received: string }): Suggestion => suggestOffline({ campaign_context: AGENCY, ...input }, { learned: [], now: NOW });
const slotOf = (text: string) => {
  const w = readWhen(text, NOW);
  const day = dayMeant(w, NOW);
  return day && w.time !== null ? formatSlot({ day, minutes: w.time }) : null;
};

describe('language and register', () => {
  it.each([
    ['Können wir nächste Woche Dienstag um 14 Uhr telefonieren?', 'de'],
    ['Kein Interesse.', 'de'],
    ['Merci de me retirer de votre liste de diffusion.', 'fr'],
    ['¿Cuánto cuesta?', 'es'],
    ['Geen interesse, bedankt.', 'nl'],
    ['Sounds good, can we do a call next week?', 'en'],
  ])('%s → %s', (text, lang) => expect(detectLanguage(text)).toBe(lang));

  it('falls back to the thread, then the brief, then English for a reply too short to tell', () => {
    expect(detectLanguage('ok')).toBeNull();
    expect(chooseLanguage('ok', [{ role: 'outbound', content: 'Hallo Anna, hätten Sie Interesse an einem kurzen Austausch?' }], AGENCY)).toBe('de');
    expect(chooseLanguage('ok', null, 'Wir übernehmen die komplette Terminvereinbarung für IT-Dienstleister.')).toBe('de');
    expect(chooseLanguage('ok', null, null)).toBe('en');
  });

  it('says Sie/vous/usted/u unless the prospect wrote du/tu/tú/je or the tone is casual', () => {
    expect(registerFor('de', null, ['Wann hättest du Zeit?'])).toBe('informal');
    expect(registerFor('de', null, ['Wann hätten Sie Zeit?'])).toBe('formal');
    expect(registerFor('fr', null, ['Combien ça coûte par mois ?'])).toBe('formal'); // "coûte" is not "te"
    expect(registerFor('es', 'formal', ['¿Te va bien el jueves?'])).toBe('formal');
    expect(registerFor('nl', 'casual', ['Wat kost het?'])).toBe('informal');
    // No marker in the reply: the thread decides (our own "tú" earlier).
    expect(registerFor('es', null, ['¿Qué tal el lunes 30?', '¿Te interesaría una llamada?'])).toBe('informal');
  });
});

describe('days, times and slots in five languages', () => {
  it.each([
    ['Können wir nächste Woche Dienstag um 14 Uhr telefonieren?', 'Tuesday 24 November at 14:00'],
    ['Mardi à 15h, ça vous va ?', 'Tuesday 24 November at 15:00'],
    ['Next Tuesday at 2pm works for me.', 'Tuesday 24 November at 14:00'],
    ['¿Te va bien el jueves a las 10?', 'Thursday 26 November at 10:00'],
    ['Donderdag om 11 uur schikt mij prima.', 'Thursday 26 November at 11:00'],
    ['Wie wäre es am 1. Dezember um 11 Uhr?', 'Tuesday 1 December at 11:00'],
    ['El martes a las 4 de la tarde me viene perfecto.', 'Tuesday 24 November at 16:00'],
    ["Kan het woensdag om 3 uur 's middags?", 'Wednesday 25 November at 15:00'],
    ['Montag geht bei mir leider nicht, aber Donnerstag um 16:30 passt.', 'Thursday 26 November at 16:30'],
    ['El lunes no puedo, pero el miércoles a las 12 sí.', 'Wednesday 25 November at 12:00'],
    ['¿Qué tal el lunes 30 a las 16:00?', 'Monday 30 November at 16:00'],
  ])('%s → %s', (text, slot) => expect(slotOf(text)).toBe(slot));

  it('does not read a price or a date as a clock time', () => {
    expect(readWhen('Was kostet das? 1.200 € pro Monat', NOW).time).toBeNull();
    expect(readWhen('Ich bin bis zum 3.12. unterwegs', NOW).time).toBeNull();
  });

  it('picks the slot we offered by day or by time, in the language we offered it', () => {
    const offered = offeredSlots('Würden Ihnen Montag, 23. November um 10:00, Dienstag, 24. November um 14:00 oder Mittwoch, 25. November um 11:30 passen?', NOW);
    expect(offered.map((s) => formatSlot(s))).toEqual(['Monday 23 November at 10:00', 'Tuesday 24 November at 14:00', 'Wednesday 25 November at 11:30']);
    expect(formatSlot(pickOffered(readWhen('Dienstag passt mir gut.', NOW), offered)!)).toBe('Tuesday 24 November at 14:00');
    expect(formatSlot(pickOffered(readWhen('Half twaalf is prima.', NOW), offered)!)).toBe('Wednesday 25 November at 11:30');
  });

  it('formats dates and lists with Intl in the draft language', () => {
    const d = new Date(Date.UTC(2026, 10, 24));
    expect([formatDay(d), formatDay(d, 'de'), formatDay(d, 'fr'), formatDay(d, 'nl')]).toEqual(['Tuesday 24 November', 'Dienstag, 24. November', 'mardi 24 novembre', 'dinsdag 24 november']);
    expect(joinOr(['a', 'b', 'c'], 'es')).toBe('a, b o c');
  });
});

describe('prices and signatures', () => {
  it.each([
    ['Pricing starts at $2,500/month with no long-term contract.', { amount: '$2,500', per: 'month', from: true }],
    ['Preis: ab 1.200 € pro Monat, monatlich kündbar.', { amount: '1.200 €', per: 'month', from: true }],
    ['Tarif : à partir de 900 € par mois, sans engagement.', { amount: '900 €', per: 'month', from: true }],
    ['Pricing: from 490 EUR/month', { amount: '490 EUR', per: 'month', from: true }],
    ['We charge $99 per seat.', { amount: '$99', per: 'user', from: false }],
  ])('%s', (sentence, price) => expect(parsePrice(sentence)).toEqual(price));

  it('reads the sender from the request, else from the sign-off of our last message; never from an address', () => {
    expect(signatureName('Hallo Anna,\n\nwürden Ihnen … passen?\n\nViele Grüße\nJonas')).toBe('Jonas');
    expect(signatureName('Hi Tom, quick question?\n\n— Sam')).toBe('Sam');
    expect(signatureName('Hi Tom, quick question?')).toBeNull();
    expect(senderOf('Sam Carter', [{ role: 'outbound', content: 'Hi\n\nBest,\nJo' }])).toBe('Sam Carter');
    expect(senderOf(null, [{ role: 'outbound', content: 'Hi\n\nBest,\nJo' }, { role: 'reply', content: 'ok' }])).toBe('Jo');
    expect(senderOf('sam@agency.io', null)).toBeNull();
  });
});

describe('drafts in the prospect language (issue 12)', () => {
  it('a German proposal of a slot is confirmed in German, that slot only, signed by the sender', () => {
    const s = run({ reply_received: 'Können wir nächste Woche Dienstag um 14 Uhr telefonieren?', lead_name: 'Markus Becker', sender_name: 'Sam Carter' });
    expect(s.strategy).toBe('confirm_meeting_time');
    expect(s.suggestion).toMatch(/^Hallo Markus,/);
    expect(s.suggestion).toContain('Dienstag, 24. November um 14:00');
    expect(s.suggestion).not.toMatch(/Montag|Mittwoch|Donnerstag|Freitag|\?/);
    expect(s.suggestion.endsWith('Viele Grüße\nSam Carter')).toBe(true);
  });

  it('a Spanish price question is answered with the price from an English brief', () => {
    const s = run({ reply_received: '¿Cuánto cuesta?', campaign_context: 'Pricing: from 490 EUR/month\nIntegrations: HubSpot, Pipedrive' });
    expect(s.strategy).toBe('answer_pricing_question');
    expect(s.suggestion).toContain('Nuestros precios empiezan en 490 EUR al mes.');
    expect(s.suggestion).not.toMatch(/Pricing|check/i);
  });

  it('a German "kein Interesse" closes once, in German', () => {
    const s = run({ reply_received: 'Kein Interesse.', lead_name: 'Stefan', company: 'Braun GmbH' });
    expect(s.strategy).toBe('polite_close');
    expect(s.suggestion).toMatch(/Weiterhin viel Erfolg\.$/);
    expect(s.suggestion).not.toMatch(/Best|All the best|Viele Grüße/);
    const signed = run({ reply_received: 'Kein Interesse.', lead_name: 'Stefan', sender_name: 'Jonas' });
    expect(signed.suggestion.endsWith('Weiterhin viel Erfolg\nJonas')).toBe(true);
  });

  it('an English "not interested" ends with the well-wish alone, or the well-wish and the name', () => {
    expect(run({ reply_received: 'Not interested, thanks.', company: 'Fernway' }).suggestion).toMatch(/I won't follow up on this\.\n\nAll the best with everything at Fernway\.$/);
    expect(run({ reply_received: 'Not interested, thanks.', company: 'Fernway', sender_name: 'Sam' }).suggestion).toMatch(/\n\nAll the best with everything at Fernway,\nSam$/);
  });

  it('keeps each language within the medium caps', () => {
    for (const reply of ['Können wir nächste Woche telefonieren?', 'Quel est le tarif ?', '¿Me puede enviar más información?', 'Hoe werkt het precies?']) {
      expect(run({ reply_received: reply, medium: 'whatsapp', lead_name: 'Anna' }).suggestion.length).toBeLessThanOrEqual(300);
      expect(run({ reply_received: reply, medium: 'linkedin', lead_name: 'Anna' }).suggestion.length).toBeLessThanOrEqual(400);
    }
  });
});
