import { describe, expect, it } from 'vitest';
import { classifyOffline, classifyRules } from '../../lib/classify/offline';
import { detectOptOut } from '../../lib/suppression/detect';

// Families of the fresh8 round (docs/classifier.md, "Round 9"), on sentences that are in no fixture set.
const label = (text: string) => classifyOffline(text).classification;

describe('opt-outs in their separable and imperative forms, five languages (rule 1)', () => {
  it.each([
    'Bitte tragen Sie mich aus Ihrem Verteiler aus.',
    'Tragen Sie uns bitte aus, danke.',
    'Melden Sie mich bitte ab.',
    'Nehmen Sie mich bitte aus der Liste.',
    'Hören Sie bitte auf mit diesen Mails.',
    'Wie kann ich mich abmelden?',
    'Hou nou eens op met deze mails!',
    'Houd op met mailen.',
    'Stop met die mails alsjeblieft.',
    'Schrijf me maar uit.',
    'Arrêtez vos relances, merci.',
    'Désinscrivez-moi svp.',
    'No quiero más correos.',
    'Quiero darme de baja.',
    'Basta de correos, por favor.',
    'Dejen de enviarme correos.',
    'Delete me from your database.',
    'Stop sending these emails.',
    'Sounds fine in principle, but please take me off your list.',
  ])('%j → not_interested, and the sender is listed', (text) => {
    const r = classifyOffline(text);
    expect(r.classification).toBe('not_interested');
    expect(r.signals).toEqual(['ni.opt_out']);
    expect(detectOptOut(text)).not.toBeNull();
  });

  it.each([
    'Ich möchte mich nicht austragen, nur weniger Mails bitte.',
    'Ik wil me niet uitschrijven.',
    'Je ne veux pas me désinscrire.',
    'No quiero darme de baja, solo menos correos.',
    "I don't want to unsubscribe, just fewer emails.",
    'I never asked to be unsubscribed.',
    "I don't want to miss your mails.",
    'Ich möchte keine Mails mehr verpassen.',
    'Ik wil geen mails missen.',
    'Ich melde mich ab Januar wieder.',
    'Tragen Sie mich für Dienstag ein.',
  ])('%j is no opt-out', (text) => {
    expect(classifyRules(text).signals).not.toContain('ni.opt_out');
    expect(detectOptOut(text)).toBeNull();
  });
});

describe('formal quote requests, price lists, accepting the proposal and going live are hot', () => {
  it.each([
    'Could you send a formal quote for 25 users?',
    'We agree with the proposal. When can we go live?',
    'Können Sie mir ein verbindliches Angebot schicken? Wir brauchen es für die Geschäftsführung.',
    'Einverstanden mit Ihrem Angebot. Ab wann können wir starten?',
    'Pouvez-vous m’envoyer un devis détaillé ?',
    "D'accord avec votre proposition, quand pouvons-nous démarrer ?",
    'Necesito una oferta detallada para 12 personas.',
    'De acuerdo con la propuesta. ¿Cuándo podemos empezar?',
    'Stuur je een formele offerte voor 3 vestigingen?',
    'Akkoord met de offerte, kunnen we vanaf 1 maart starten?',
  ])('%j → hot', (text) => {
    const r = classifyOffline(text);
    expect(r.classification).toBe('hot');
    expect(r.signals).toContain('hot.formal_offer');
  });

  it('with a reservation a price list request stays warm (rule 5), negated it is no buying step', () => {
    expect(label('Just curious, could you send a price list? Not looking right now.')).toBe('warm');
    expect(classifyRules("We don't agree with the proposal.").signals).not.toContain('hot.formal_offer');
  });
});

describe('a plain forward is a cold referral; a hand-off for an opinion stays warm', () => {
  it.each([
    "I've forwarded this to our CFO.",
    "Hab's an meinen Kollegen Weber weitergegeben.",
    "J'ai transmis votre message à ma collègue.",
    'Lo he reenviado a dirección.',
    'Ik heb je mail doorgestuurd naar onze marketingmanager.',
  ])('%j → cold, decided by the rules', (text) => {
    const r = classifyOffline(text);
    expect(r.classification).toBe('cold');
    expect(r.signals).toContain('cold.plain_forward');
  });

  it.each([
    ["I've forwarded this to our CFO to get her take.", 'warm'],
    ["I've forwarded this to our CFO. Can we talk Tuesday at 3pm?", 'hot'],
  ] as const)('%j → %s (not a plain forward)', (text, expected) => {
    const r = classifyOffline(text);
    expect(r.classification).toBe(expected);
    expect(r.signals).not.toContain('cold.plain_forward');
  });
});

it('a hand-off for an opinion is decided by the rules (warm), in every language', () => {
  for (const text of [
    "J'ai transmis votre mail à notre responsable marketing pour avoir son avis.",
    'Ich habe es an unseren Geschäftsführer weitergeleitet, um seine Einschätzung zu hören.',
  ]) {
    const r = classifyOffline(text);
    expect(r.classification).toBe('warm');
    expect(r.signals).not.toContain('model.cold');
  }
});

it('a notice that declares itself automatic is ooo even when it names who left (rule.machine_notice)', () => {
  const r = classifyOffline('Pedro ya no trabaja con nosotros. Este es un mensaje automático.');
  expect(r.classification).toBe('ooo');
  expect(r.signals).toContain('rule.machine_notice');
  // written by a person, it stays a referral
  expect(label('Pedro ya no trabaja con nosotros, escríbele a Marta.')).toBe('cold');
});

describe('a no whose time qualifier closes the future is not_interested, not a deferral', () => {
  it.each([
    ['Neither now nor next year, sorry.', 'not_interested'],
    ["It's not on our roadmap.", 'not_interested'],
    ['Weder jetzt noch später, danke.', 'not_interested'],
    ['Ni maintenant ni dans un an : ça ne fait pas partie de nos plans.', 'not_interested'],
    ['Ni ahora ni más adelante, gracias.', 'not_interested'],
    ['Nu niet en volgend jaar ook niet.', 'not_interested'],
    // the future left open: rule 4, a deferral
    ['Not in our plans for this year, maybe next year.', 'warm'],
    ['Ahora no, quizá el año que viene.', 'warm'],
  ] as const)('%j → %s', (text, expected) => {
    expect(label(text)).toBe(expected);
  });
});

describe('product questions without a price, and smaller fixes of the round', () => {
  it.each([
    ['¿Tenéis clientes en el sector logístico? Me gustaría ver algún caso real.', 'warm'],
    ['How does onboarding work? Our last vendor vanished after the contract was signed.', 'warm'],
    ['Nous gérons tout ça en interne, merci.', 'not_interested'],
    ['Ihre Mail ist in meinem Spam gelandet. Worum geht es?', 'cold'],
    ['Sind Sie vielleicht der Tom Berger, der bei uns im Verein war?', 'cold'],
    ["It's not something we're looking at, but what does it cost roughly?", 'warm'],
  ] as const)('%j → %s', (text, expected) => {
    expect(label(text)).toBe(expected);
  });
});
