import { describe, expect, it } from 'vitest';
import { extractFeatures, fnv1a } from '../../lib/classify/features';
import { ownText } from '../../lib/classify/offline';
import { hasHotKind, questionKindFeatures, questionKinds } from '../../lib/classify/question_kind';

// Round 10 (docs/classifier.md): what a reply asks, as features of the learned layer. Sentences in no fixture set.
const kinds = (text: string) => questionKinds(ownText(text));

describe('question kinds, five languages', () => {
  it.each([
    'What kind of support do you have?',
    'Funktioniert das auch offline?',
    'Est-ce que ça marche avec Pipedrive ?',
    '¿Funciona también en catalán?',
    'Hoe werkt de koppeling met Exact?',
  ])('%j is a product question, with no reason to call it hot', (text) => {
    const k = kinds(text);
    expect(k.questions).toBe(1);
    expect(k.productQuestion).toBe(true);
    expect(k.priceQuestion || k.meetingQuestion || k.personalQuestion).toBe(false);
    expect(hasHotKind(k)).toBe(false);
  });

  it.each([
    'How much would that be for 12 seats?',
    'Was kostet das für unser Team?',
    'Vous pouvez m\'envoyer un devis ?',
    '¿Cuánto cuesta al mes?',
    'Wat is de prijs per gebruiker?',
  ])('%j is a price question, not a product question', (text) => {
    const k = kinds(text);
    expect(k.priceQuestion).toBe(true);
    expect(k.productQuestion).toBe(false);
    expect(hasHotKind(k)).toBe(true);
  });

  it.each([
    'Could we do a call on Thursday?',
    'Passt Ihnen Dienstag um 14 Uhr?',
    'On se fait un appel mardi ?',
    '¿Hablamos el jueves a las 10?',
    'Kunnen we volgende week bellen?',
  ])('%j asks for a meeting', (text) => {
    const k = kinds(text);
    expect(k.meetingQuestion).toBe(true);
    expect(k.productQuestion).toBe(false);
  });

  it.each([
    'Do you have any open positions for a junior developer?',
    'Suchen Sie zufällig noch Praktikanten?',
    'Vous prenez des stagiaires cet été ?',
    '¿Tenéis vacantes para becarios?',
    'Hebben jullie een vacature voor een stagiair?',
  ])('%j is a personal / job question', (text) => {
    const k = kinds(text);
    expect(k.personalQuestion).toBe(true);
    expect(k.productQuestion).toBe(false);
  });

  it('notes a proposed time outside a question, and counts questions', () => {
    expect(kinds('Tuesday at 3pm works for me.').proposesTime).toBe(true);
    expect(kinds('Donnerstag um 10 passt.').proposesTime).toBe(true);
    expect(kinds('Sounds interesting, send me more.').proposesTime).toBe(false);
    expect(kinds('Does it work offline? And in Polish? Who else uses it?').questions).toBe(3);
    expect(kinds('Thanks, noted.').questions).toBe(0);
  });

  it('names its features, and the learned layer reads them', () => {
    const k = kinds('Does it work offline?');
    const names = questionKindFeatures(k);
    expect(names).toEqual(['qk:n1', 'qk:product']);
    const feats = extractFeatures({ own: ownText('Does it work offline?'), subject: '', signals: [], ruleLabel: '' });
    for (const n of names) expect(feats.get(fnv1a(n))).toBeGreaterThanOrEqual(1);
    const none = extractFeatures({ own: ownText('Thanks, noted.'), subject: '', signals: [], ruleLabel: '' });
    expect(none.has(fnv1a('qk:product'))).toBe(false);
    expect(none.get(fnv1a('qk:n0'))).toBeGreaterThanOrEqual(1);
  });
});
