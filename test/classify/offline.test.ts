import { describe, expect, it } from 'vitest';
import { classifyOffline, classifyRules, detectReturnDate } from '../../lib/classify/offline';
import { CLASSIFICATIONS } from '../../lib/classify/types';

const PITCH_QUOTE = `

On Tue, Mar 4, 2025 at 9:12 AM Sam Carter <sam@growthpilot.io> wrote:
> Hi Anna,
> We help B2B teams book 30+ qualified meetings a month. Would you be open to a
> 15-minute call next week? Happy to send a demo and pricing, or book a meeting
> via my calendar link. Let's talk Tuesday?
> P.S. not interested? Just reply "unsubscribe".`;

const label = (text: string, subject?: string) => classifyOffline(text, { subject }).classification;

describe('classifyOffline', () => {
  it.each([
    // hot
    ["Let's talk Tuesday at 2pm.", 'hot'],
    ['Send me a calendar link.', 'hot'],
    ['What does it cost for 20 seats?', 'hot'],
    ['Happy to jump on a call.', 'hot'],
    ["We'd like to start a pilot next month.", 'hot'],
    ['Klingt gut, können wir nächste Woche telefonieren?', 'hot'],
    // warm
    ['Interesting, tell me more.', 'warm'],
    ['Not right now but keep in touch.', 'warm'],
    ['Not interested right now, maybe next quarter.', 'warm'],
    ['Maybe later in the year.', 'warm'],
    ['How does this integrate with HubSpot?', 'warm'],
    ["Don't need a call, but send over some info.", 'warm'],
    // cold
    ['Who are you?', 'cold'],
    ['How did you get my email?', 'cold'],
    ['You should talk to Jane, she handles this.', 'cold'],
    ['ok', 'cold'],
    ['', 'cold'],
    // not_interested
    ['No thanks.', 'not_interested'],
    ['Remove me from your list.', 'not_interested'],
    ['Stop emailing me.', 'not_interested'],
    ['We already have a solution and are happy with it.', 'not_interested'],
    ['Not interested right now or in the future.', 'not_interested'],
    ["No. Don't need a call, don't need a demo.", 'not_interested'],
    ['Kein Interesse.', 'not_interested'],
    // ooo
    ['I am out of the office until 12 March with limited access to email.', 'ooo'],
    ['Ich bin bis zum 12.03. nicht im Büro.', 'ooo'],
    ["Je suis absente jusqu'au 12 mars.", 'ooo'],
    ['Ik ben afwezig tot 12 maart.', 'ooo'],
    ['Estoy fuera de la oficina hasta el 12 de marzo.', 'ooo'],
  ] as const)('%j → %s', (text, expected) => {
    expect(label(text)).toBe(expected);
  });

  it('uses the subject as an out-of-office signal', () => {
    expect(label('Thanks for your message. Back on Monday.', 'Automatic reply: Quick question')).toBe('ooo');
    expect(label('Danke für Ihre Nachricht.', 'Abwesenheitsnotiz: Kurze Frage')).toBe('ooo');
    expect(label('Merci pour votre message.', 'Réponse automatique : Question')).toBe('ooo');
  });

  it('ignores call/meeting words in the urgent-contact line of an auto-reply', () => {
    expect(label('I am out of the office until 14 March. If urgent, please call +44 20 7946 0018 or book a meeting with my colleague.')).toBe('ooo');
  });

  it('treats human-written absence with explicit interest as hot (documented precedence)', () => {
    expect(label("I'm out of office until the 14th, but yes let's book a call when I'm back.")).toBe('hot');
    const r = classifyOffline("I'm out of office until the 14th. Let's book a call when I'm back.");
    expect(r.classification).toBe('hot');
    expect(r.signals).toContain('rule.ooo_with_interest');
    // …but a machine auto-reply can never express interest.
    expect(label("I'm out of office until the 14th. Let's book a call when I'm back.", 'Automatic reply: hi')).toBe('ooo');
  });

  describe('quoted thread does not decide the label', () => {
    it('the quoted pitch mentions a call, the reply says unsubscribe', () => {
      expect(label('unsubscribe' + PITCH_QUOTE)).toBe('not_interested');
    });
    it.each([
      ['Who are you?', 'cold'],
      ['Send me more info please.', 'warm'],
      ['No thanks.', 'not_interested'],
      ['Yes, Tuesday 2pm works.', 'hot'],
    ] as const)('%j + quoted pitch → %s', (reply, expected) => {
      expect(label(reply + PITCH_QUOTE)).toBe(expected);
    });
  });

  it('"unsubscribe" anywhere in the own text wins', () => {
    expect(label("Interesting product and I'd love a demo, but please unsubscribe me from this sequence.")).toBe('not_interested');
    expect(label("Let's talk Tuesday. Also, please remove me from your newsletter list.")).toBe('not_interested');
    expect(label('Stop. Emailing. Me.')).toBe('not_interested');
  });

  it('handles negated interest', () => {
    expect(label("Don't need a call.")).not.toBe('hot');
    expect(label('No me interesa.')).toBe('not_interested');
    expect(label('Je ne suis pas intéressé.')).toBe('not_interested');
  });

  it('returns a confidence in 0..1 that reflects the margin', () => {
    for (const t of ['unsubscribe', 'Who are you?', 'hmm', 'Interesting, but not now.', "Let's talk Tuesday at 2pm."]) {
      const r = classifyOffline(t);
      expect(CLASSIFICATIONS).toContain(r.classification);
      expect(r.confidence).toBeGreaterThanOrEqual(0);
      expect(r.confidence).toBeLessThanOrEqual(1);
    }
    const clear = classifyOffline("Yes, let's book a demo. Send me a calendar invite for Tuesday at 2pm.");
    const mixed = classifyOffline("Let's talk, but maybe next quarter.");
    expect(clear.confidence).toBeGreaterThan(mixed.confidence);
  });

  it('lists the signals that fired', () => {
    const r = classifyOffline('Send me a calendar link for Tuesday at 2pm.');
    expect(r.signals).toEqual(expect.arrayContaining(['hot.calendar', 'hot.slot']));
    expect(classifyOffline('unsubscribe').signals).toEqual(['ni.opt_out']);
  });
});

describe('detectReturnDate', () => {
  const now = new Date('2025-03-01T09:00:00Z');
  it.each([
    ['I am back on 12 March.', '2025-03-12'],
    ['Out of office until 3/14.', '2025-03-14'],
    ['Out of office until 14/03.', '2025-03-14'],
    ['Ich bin bis zum 12.03. nicht im Büro.', '2025-03-12'],
    ["Je suis absente jusqu'au 12 mars.", '2025-03-12'],
    ['Ik ben afwezig tot 12 maart.', '2025-03-12'],
    ['Estoy fuera hasta el 12 de marzo.', '2025-03-12'],
    ['I will not return until 04/14/2025.', '2025-04-14'],
    ['until Monday, March 17th', '2025-03-17'],
    ['Volveré el 15 de abril.', '2025-04-15'],
    ['dès mon retour le 5 août', '2025-08-05'],
    ['Vanaf maandag 10 juni ben ik weer aanwezig.', '2025-06-10'],
    // An explicit "back/ab" date beats the "until/bis" date.
    ['Bis einschließlich 21. April im Urlaub. Ab dem 22. April wieder erreichbar.', '2025-04-22'],
    // No year and already past → next year.
    ['Closed from December 23rd through January 2nd.', '2026-01-02'],
    ['I will be back on the 24th.', '2025-03-24'],
    ['OOO today. Back Thursday.', '2025-03-06'],
  ])('%j → %s', (text, iso) => {
    expect(detectReturnDate(text, now)).toBe(iso);
  });

  it.each([
    'Thanks, talk soon.',
    'Happy to talk on 12 March.', // a date without a return/until cue
    'On parental leave until September 2025.', // month only: no day to schedule on
    'Back on 31 February.', // impossible date
  ])('%j → null', (text) => {
    expect(detectReturnDate(text, now)).toBeNull();
  });
});

// Issue 12: "Kurze Ergänzung: bitte auch meinen Kollegen Thomas einladen", sent after a booked call, was cold. An
// addition to an agreed meeting (invite a colleague, the agenda, move the slot) is logistics of a next step: hot.
// Pointing to a colleague instead of yourself stays a cold referral.
describe('additions to a booked meeting', () => {
  it.each([
    'Kurze Ergänzung: bitte auch meinen Kollegen Thomas einladen',
    'Please also invite my colleague Sarah to the call.',
    'Could you add Mark to the invite?',
    'Can you send the agenda beforehand?',
    'Could we move the call to Thursday?',
    'Können wir den Termin auf Freitag verschieben?',
    'Pourriez-vous inviter aussi ma collègue Claire ?',
    "Pouvez-vous m'envoyer l'ordre du jour ?",
    'Kunnen we de afspraak verzetten naar vrijdag?',
    'Wil je mijn collega Pieter ook uitnodigen?',
    '¿Podemos mover la llamada al jueves?',
    '¿Puedes invitar también a mi compañera Lucía?',
  ])('%j → hot', (text) => {
    expect(label(text)).toBe('hot');
    expect(label(text + PITCH_QUOTE)).toBe('hot');
  });

  it.each([
    'Bitte wenden Sie sich an meinen Kollegen Thomas.',
    'Not the right person, please talk to my colleague Jane.',
    "Ce n'est pas moi qui gère ça, voyez avec mon collègue.",
  ])('%j → cold (a referral, not an addition)', (text) => {
    expect(label(text)).toBe('cold');
  });

  it('a negated addition does not count', () => {
    expect(label("Please don't invite my colleague, I will decide alone. Not interested anyway.")).toBe('not_interested');
  });
});

// Issue 12, the round after fresh2: its misses were closed as phrase families in all five languages, not per
// sentence. These cases were written for the families (none is a fresh-set sentence); the fresh sets measure the rest.
describe('phrase families of the fresh2 round', () => {
  it.each([
    // opt-outs: remove-me verbs with a list, "no more mails" with a wanting/receiving verb
    ['Quitadme de la lista, por favor.', 'not_interested'],
    ['Por favor, no me envíen más correos.', 'not_interested'],
    ['Enlevez-moi de votre liste.', 'not_interested'],
    ['Ne me relancez plus.', 'not_interested'],
    ['Löschen Sie bitte meine Daten.', 'not_interested'],
    ['Haal mij uit jullie bestand.', 'not_interested'],
    ["Don't want any more emails, thanks.", 'not_interested'],
    // what reads like an opt-out but is none
    ['Sácame de dudas: ¿cuánto cuesta al mes?', 'hot'],
    ['Nehmen Sie mich gerne in den Termin mit auf, Donnerstag 10 Uhr.', 'hot'],
    // times: "9.30am", "um halb drei", "om half tien", "15u", "a las nueve", "at noon"
    ["Let's do 9.30am Tuesday.", 'hot'],
    ['Passt Ihnen Mittwoch um halb elf?', 'hot'],
    ['Dinsdag om half tien is prima.', 'hot'],
    ['Ok voor donderdag 15u.', 'hot'],
    ['El lunes a las diez me va bien.', 'hot'],
    ['Thursday at noon?', 'hot'],
    // "let's talk" / "when suits you" outside English, unless deferred in the same clause
    ['Vale, hablamos el jueves.', 'hot'],
    ['Quand êtes-vous disponible ?', 'hot'],
    ['Interesante, aunque ahora mismo estamos con otros proyectos. Hablamos más adelante.', 'warm'],
    // price nouns
    ['¿Qué precio tiene el plan mensual?', 'hot'],
    ['Wat zijn de prijzen?', 'hot'],
    // a no with a time qualifier is a deferral (rule 4); "… or ever" keeps the refusal
    ['Kein Bedarf im Moment, vielleicht nächstes Jahr.', 'warm'],
    ['Pas intéressé pour le moment.', 'warm'],
    ['No budget right now, try again in Q3.', 'warm'],
    ['Kein Bedarf, weder jetzt noch in Zukunft.', 'not_interested'],
    // deferrals, "I'll read it"
    ['Revenez vers moi dans quelques mois.', 'warm'],
    ['Neem over drie maanden weer contact op.', 'warm'],
    // referrals, "who gave you my address", busy holding replies, short confusion
    ['Ich bin nicht der richtige Ansprechpartner, ich leite es an die zuständige Kollegin weiter.', 'cold'],
    ['Wer hat Ihnen meine Adresse gegeben?', 'cold'],
    ['Hoe komt u aan mijn adres?', 'cold'],
    ['Estoy liado hoy, te contesto mañana.', 'cold'],
    ["I'm in meetings all day, will reply tomorrow.", 'cold'],
    ['Pardon ?', 'cold'],
    ["Ah d'accord.", 'cold'],
    // "I'll pass it on" is not "I'll pass"; satisfied / already served / decided against
    ["Send over a one-pager and I'll pass it to the team.", 'warm'],
    ['We already work with another agency.', 'not_interested'],
    ['Wir sind mit unserem aktuellen Dienstleister zufrieden.', 'not_interested'],
    ['Hemos decidido no seguir adelante.', 'not_interested'],
    ['Non.', 'not_interested'],
    ["Nah, we're fine.", 'not_interested'],
  ] as const)('%j → %s', (text, expected) => {
    expect(label(text)).toBe(expected);
  });
});

// The learned layer outvotes the rules here: warm.will_read fires, the model reads the short German sentence as cold
// (0.52 against 0.24). A known miss of the combination (docs/classifier.md), kept as a test of the rule family
// rather than tuned away with a phrase.
it('"Ich schaue es mir in Ruhe an." is warm by the rules (the engine: a known model override)', () => {
  const r = classifyRules('Ich schaue es mir in Ruhe an.');
  expect(r.classification).toBe('warm');
  expect(r.signals).toContain('warm.will_read');
});

// Same kind of known miss since fresh6 joined the training data: its Dutch hand-offs "doorgestuurd naar … voor zijn
// mening" are warm, and the model now reads a plain Dutch forward as warm too (0.64 against 0.22). By the label
// convention a plain forward is a cold referral; letting every rules' referral stand instead cost 0.4 points in
// cross-validation (docs/classifier.md), so the rule family is tested here rather than the combination.
it('"Ik heb je mail doorgestuurd naar onze marketingmanager." is a cold referral by the rules (a known model override)', () => {
  const r = classifyRules('Ik heb je mail doorgestuurd naar onze marketingmanager.');
  expect(r.classification).toBe('cold');
  expect(r.signals).toContain('cold.referral_xx');
});

// Families added in the fresh3/fresh4 rounds, tested on sentences that are in no fixture set.
describe('phrase families of the fresh3 and fresh4 rounds', () => {
  it.each([
    // bare refusals and short imperatives
    ['My answer is still no.', undefined, 'not_interested'],
    ['Nope. Not for us.', undefined, 'not_interested'],
    ['Got your third email. Delete this.', undefined, 'not_interested'],
    ["We'd never outsource this.", undefined, 'not_interested'],
    ["We don't work with agencies.", undefined, 'not_interested'],
    ['Wir arbeiten grundsätzlich nicht mit Agenturen.', undefined, 'not_interested'],
    ['No contratamos agencias externas.', undefined, 'not_interested'],
    // a no with a time qualifier stays a deferral (rule 4)
    ['Not something we need right now.', undefined, 'warm'],
    ["We don't need an agency at the moment, try us in Q4.", undefined, 'warm'],
    // confusion is cold, not curiosity
    ['Was this written by a bot?', undefined, 'cold'],
    ["Sorry, you've emailed the wrong Sarah.", undefined, 'cold'],
    ['Waarom krijg ik deze mail?', undefined, 'cold'],
    ['Je ne comprends pas votre message.', undefined, 'cold'],
    // hand-offs for an opinion and "first I have to discuss it"
    ['Shared this with our CFO to get her take, will let you know.', undefined, 'warm'],
    ['Ich muss das erst mit meinem Partner besprechen, ich gebe Ihnen Bescheid.', undefined, 'warm'],
    // absences: subject prefix, "de baja", a mailbox unmonitored for a period, a day off
    ['Back next week.', 'Auto: Re: quick idea', 'ooo'],
    ['Estoy de baja, vuelvo el lunes.', undefined, 'ooo'],
    ['This inbox is not monitored during the summer break. We reopen on 1 September.', undefined, 'ooo'],
    ['Ik ben morgen vrij, vrijdag lees ik je mail.', undefined, 'ooo'],
    // spam as a deliverability topic; a contract with someone else; a proposal received
    ['Do your emails end up in the spam folder much?', undefined, 'warm'],
    ['Wir haben einen Vertrag mit einer anderen Agentur.', undefined, 'not_interested'],
    ['Envoyez-moi votre proposition pour 5 licences.', undefined, 'hot'],
  ] as const)('%j (subject %j) → %s', (text, subject, expected) => {
    expect(label(text, subject)).toBe(expected);
  });
});

// Label convention (docs/classifier.md "Label conventions"): an automatic notice that the mailbox or address is no
// longer in use or not monitored is ooo, like an absence notice, with or without a new address; it was cold before
// (this test held "This mailbox is not monitored." → cold). A person's own "X no longer works here" stays cold.
describe('automatic dead-mailbox notices are ooo; a person saying someone left stays cold', () => {
  it.each([
    ['This mailbox is not monitored.', 'ooo'],
    ['This address is no longer in use. Please write to hello@northfield.io instead.', 'ooo'],
    ['Tom Baker is no longer with Northfield. This inbox is no longer monitored. This is an automated message.', 'ooo'],
    ['Dieses Postfach ist nicht mehr aktiv. Bitte schreiben Sie an service@weber-gmbh.de.', 'ooo'],
    ['Frau Keller ist nicht mehr im Unternehmen. Dies ist eine automatisch generierte Nachricht.', 'ooo'],
    ["Cette boîte mail n'est plus utilisée. Écrivez-nous à bonjour@maison-claire.fr.", 'ooo'],
    ["M. Girard a quitté la société. Ceci est un message automatique, merci de ne pas y répondre.", 'ooo'],
    ['Esta dirección de correo ya no está en uso. Escriba a hola@viveros-luna.es.', 'ooo'],
    ['Pedro ya no trabaja con nosotros. Este es un mensaje automático.', 'ooo'],
    ['Deze mailbox wordt niet meer gelezen. Mail naar info@de-linde.nl.', 'ooo'],
    ['Sanne werkt hier niet meer. Dit is een automatisch gegenereerd bericht.', 'ooo'],
    // asking whether the pitch was automated is confusion, not a notice
    ['Ist das eine automatische Nachricht?', 'cold'],
    ['Is dit een automatisch bericht?', 'cold'],
  ] as const)('%j → %s', (text, expected) => {
    expect(label(text)).toBe(expected);
  });

  // The rules read these as referrals; the engine never as ooo. (The model still outvotes the rules' cold on
  // "Pedro ya no trabaja aquí." with not_interested: a known miss, docs/classifier.md.)
  it.each([
    'Tom left Northfield in May, try hello@northfield.io.',
    'Frau Keller ist seit Mai nicht mehr bei uns.',
    'M. Girard ne travaille plus ici depuis mai.',
    'Pedro ya no trabaja aquí.',
    'Sanne werkt hier sinds mei niet meer.',
  ])('%j is a person saying someone left: cold by the rules, never ooo', (text) => {
    expect(classifyRules(text).classification).toBe('cold');
    expect(label(text)).not.toBe('ooo');
  });

  it('counts as the mail system talking: no interest is read into it (rule 2)', () => {
    const r = classifyOffline("This mailbox is not monitored. For a call or a demo, book with our sales team.");
    expect(r.classification).toBe('ooo');
    expect(r.signals).toContain('ooo.dead_mailbox');
  });
});

// Label convention: handing the email on *for an opinion* is warm in every language; a plain forward is cold.
describe('hand-offs for an opinion, in every language', () => {
  it.each([
    ['Ich habe es an unsere Geschäftsführerin weitergeleitet, um ihre Einschätzung zu hören.', 'warm'],
    ["J'ai transmis votre mail à notre responsable marketing pour avoir son avis.", 'warm'],
    ['Lo he reenviado a nuestra directora de ventas para que lo valore.', 'warm'],
    ['Ik heb het doorgegeven aan onze directeur voor haar mening.', 'warm'],
  ] as const)('%j → %s', (text, expected) => {
    expect(label(text)).toBe(expected);
  });
});

// Families of the fresh7 round (label conventions in docs/classifier.md), on sentences that are in no fixture set.
describe('price questions: hot without a reservation, warm with one (rule 5)', () => {
  it.each([
    ['How much would this be for our 12 sales reps?', 'hot'],
    ['Was kostet das für 8 Standorte?', 'hot'],
    ['Combien ça coûte pour 20 utilisateurs ?', 'hot'],
    ['¿Cuánto cuesta para 30 usuarios?', 'hot'],
    ['Wat kost het voor 15 medewerkers?', 'hot'],
    ["Not in the market right now, but just curious: what's the ballpark for 20 seats?", 'warm'],
    ['Aus reiner Neugier: was kostet das für ein Team von 10 Leuten? Wir suchen gerade nichts.', 'warm'],
    ['Par curiosité, quels sont vos tarifs pour une équipe de 10 ? On ne cherche rien pour le moment.', 'warm'],
    ['Por curiosidad, ¿cuánto cuesta para 10 personas? No estamos buscando nada ahora.', 'warm'],
    ['Uit nieuwsgierigheid: wat kost het voor 10 mensen? We zoeken momenteel niks.', 'warm'],
  ] as const)('%j → %s', (text, expected) => {
    expect(label(text)).toBe(expected);
  });

  it('lets a reservation beat the price signals and "not looking", and says so', () => {
    const r = classifyOffline("We're not looking, but out of curiosity, what do you charge per user?");
    expect(r.classification).toBe('warm');
    expect(r.signals).toEqual(expect.arrayContaining(['ni.not_fit', 'rule.price_reservation']));
  });

  it('keeps a reservation without a price question, or a positive turn after "no budget", as it was', () => {
    expect(label("We're not looking.")).toBe('not_interested');
    expect(label('Kein Budget eingeplant, aber Ihre Zahlen überzeugen: schicken Sie mir bis Freitag ein Angebot.')).toBe('hot');
    expect(label("Just curious what it costs - can we do a call Tuesday at 3pm?")).toBe('hot');
  });
});

describe('off-topic personal questions are cold', () => {
  it.each([
    'Quick one: are you the same Priya who ran the SaaS meetup in Leeds?',
    'Sind Sie nicht der Bruder von Jens Albers? Ihr Name kommt mir bekannt vor.',
    "Vous prenez des stagiaires ? Ma fille cherche un stage de fin d'études.",
    '¿Es tu perro el de la foto de perfil? Es igual que el mío.',
    'Is dat jouw hond op je profielfoto? Lijkt precies op de onze.',
  ])('%j → cold', (text) => {
    const r = classifyOffline(text);
    expect(r.classification).toBe('cold');
    expect(r.signals).toContain('cold.personal');
  });
});

describe('budget and planning deferrals are warm (rule 4), beating "no budget"', () => {
  it.each([
    ['No budget for this year, our planning cycle starts in March - reach out then.', 'warm'],
    ['Kein Budget mehr für dieses Jahr. Melden Sie sich im Februar wieder.', 'warm'],
    ['Budget déjà bouclé pour cette année, recontactez-moi en janvier.', 'warm'],
    ['No hay presupuesto para este año. Escríbeme en enero.', 'warm'],
    ['Geen budget meer voor dit jaar, neem in maart contact op.', 'warm'],
    // a no that stays a no
    ['No budget, and there never will be for this.', 'not_interested'],
  ] as const)('%j → %s', (text, expected) => {
    expect(label(text)).toBe(expected);
  });
});

describe('short refusals are not_interested, whatever question came before', () => {
  it.each([
    "Not a priority and it never will be.",
    'Wozu soll das gut sein? Nein, lassen Sie mal.',
    "Ce n'est pas une priorité et ça ne le sera jamais.",
    '¿Pagar por esto? Ni hablar.',
    'Hoezo zouden wij dat nodig hebben? Laat maar.',
  ])('%j → not_interested', (text) => {
    expect(label(text)).toBe('not_interested');
  });
});

describe('"we use X but are not happy with Y" is warm', () => {
  it.each([
    "We use Outreach already but we're not happy with the deliverability. What do you do differently?",
    'Wir haben schon Pipedrive, sind aber nicht wirklich zufrieden mit den Auswertungen. Was ist bei Ihnen anders?',
    "On utilise déjà Hubspot mais on n'est pas vraiment satisfaits des relances. Qu'est-ce que vous faites de différent ?",
    'Ya usamos Salesforce, pero no estamos del todo contentos con los informes. ¿Qué hacéis distinto?',
    'We werken al met Teamleader, maar zijn niet echt tevreden over de planning. Wat doen jullie anders?',
  ])('%j → warm', (text) => {
    expect(label(text)).toBe('warm');
  });
});
