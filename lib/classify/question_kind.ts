// What kind of thing a reply asks or offers, independent of its exact words (issue 12, round 10). The word and
// char-n-gram features learn "a question mark is interest" and "price words are hot"; they cannot tell a product
// question ("does it work offline?", warm by convention) from a buying question ("what does it cost for 40 people?",
// hot) or an off-topic personal one ("do you take interns?", cold) when the wording is new. These few coarse kinds,
// from short lexicons in the five languages the classifier reads, carry that distinction across wordings.
// Input is the normalised own text (lower case, no diacritics), as everywhere in lib/classify.

// Price, cost, quote or offer: a buying question when asked.
const PRICE = /\b(cost|costs|price|prices|pricing|priced|quote|quotation|fee|fees|how much|budget|preis\w*|kost\w*|angebot|tarif\w*|prix|cout\w*|devis|combien|precio\w*|cuanto|cuesta\w*|presupuesto|coste|costo|prijs\w*|offerte|hoeveel|licen[cs]\w*)\b/;
// A meeting, a call, a demo or a date: the next step itself.
const MEETING = /\b(call|meet|meeting|demo|calendar|slot|zoom|teams|chat|talk|schedule|termin\w*|telefon\w*|gesprach\w*|treffen|anruf\w*|videocall|appel\w*|rendez|rdv|reunion\w*|visio\w*|llamada\w*|llamar\w*|hablar\w*|cita|bellen|afspraak|gesprek\w*|overleg\w*|belletje|kennismak\w*)\b/;
const WEEKDAY = /\b(monday|tuesday|wednesday|thursday|friday|tomorrow|next week|montag|dienstag|mittwoch|donnerstag|freitag|morgen|nachste woche|lundi|mardi|mercredi|jeudi|vendredi|demain|semaine prochaine|lunes|martes|miercoles|jueves|viernes|manana|semana que viene|proxima semana|maandag|dinsdag|woensdag|donderdag|vrijdag|volgende week)\b/;
const CLOCK = /\b\d{1,2}(:\d{2}| ?(am|pm|uhr|h\d{0,2}|u\b|hrs?\b))|\b(um|at|a las|a la|om|vers|hacia) \d{1,2}\b/;
// About the sender as a person, or about a job: not about the offer.
const PERSONAL = /\b(are you (the same|by any chance|related|from)|your (dog|cat|brother|sister|son|daughter|photo|picture|profile|accent)|(ihr|dein|votre|ton|tu|su|je|uw) (hund|chien|perro|hond|foto|photo|bruder|frere|hermano|broer)|bruder|frere|hermano|broer|alternan\w*|stagiair\w*|becari\w*|werkstudent\w*|azubi\w*|trainee\w*|intern\w*|job|jobs|vacanc\w*|hiring|positions?|apply|application|cv|resume|stelle\w*|praktik\w*|bewerb\w*|ausbildung|stage|stagiaire|emploi|candidat\w*|poste|alternance|trabajo|practicas|vacante\w*|curriculum|empleo|becario|vacature\w*|sollicit\w*|baan|werkplek|zijn sie (zufallig|etwa)|sind sie (zufallig|etwa)|etes-vous|eres tu|es usted|ben jij|bent u (toevallig|soms))\b/;
// How the product works: warm curiosity, not a purchase.
const PRODUCT = /\b(how|does|do|can|is|are|support\w*|integrat\w*|work|works|working|compatible|offline|api|feature\w*|language\w*|wie|funktion\w*|unterstutz\w*|kann|konnen|gibt es|geht|comment|fonctionne\w*|peut|peuvent|est-ce|compatible|como|funciona\w*|puede\w*|soporta\w*|hay|hoe|werkt|kan|kunnen|ondersteun\w*|is er)\b/;

export interface QuestionKinds {
  /** Number of questions (sentences ending in "?"). */
  questions: number;
  /** Some question asks about price, cost, a quote or an offer. */
  priceQuestion: boolean;
  /** Some question asks about a meeting, a call, a demo or a time. */
  meetingQuestion: boolean;
  /** Some question is about the sender as a person or about a job. */
  personalQuestion: boolean;
  /** Some question asks how the product works (and none of the above kinds). */
  productQuestion: boolean;
  /** The reply names a day or a clock time. */
  proposesTime: boolean;
  /** A meeting or call word anywhere. */
  meetingWord: boolean;
  /** A price word anywhere. */
  priceWord: boolean;
}

export function questionKinds(own: string): QuestionKinds {
  const text = own.slice(0, 1500);
  // Split once (a global /[^.!?]*\?/ match rescans a long sentence from every position: quadratic).
  const questions = text
    .split(/(?<=[.!?\n])/)
    .map((q) => q.trim())
    .filter((q) => q.endsWith('?'))
    .map((q) => q.replace(/^¿+/, ''));
  const anyQ = (re: RegExp) => questions.some((q) => re.test(q));
  const priceQuestion = anyQ(PRICE);
  const meetingQuestion = anyQ(MEETING) || anyQ(WEEKDAY);
  const personalQuestion = anyQ(PERSONAL);
  return {
    questions: questions.length,
    priceQuestion,
    meetingQuestion,
    personalQuestion,
    productQuestion: !priceQuestion && !meetingQuestion && !personalQuestion && anyQ(PRODUCT),
    proposesTime: WEEKDAY.test(text) || CLOCK.test(text),
    meetingWord: MEETING.test(text),
    priceWord: PRICE.test(text),
  };
}

/** Feature names for the learned layer (features.ts hashes them). */
export function questionKindFeatures(k: QuestionKinds): string[] {
  const f = [`qk:n${Math.min(3, k.questions)}`];
  if (k.priceQuestion) f.push('qk:price');
  if (k.meetingQuestion) f.push('qk:meeting');
  if (k.personalQuestion) f.push('qk:personal');
  if (k.productQuestion) f.push('qk:product');
  if (k.questions > 0 && !k.priceQuestion && !k.meetingQuestion && !k.personalQuestion && !k.productQuestion) f.push('qk:other');
  if (k.proposesTime) f.push('k:time');
  if (k.meetingWord) f.push('k:meeting');
  if (k.priceWord) f.push('k:price');
  return f;
}

/** A reason in the text itself to call a reply hot: a time, a meeting or call, a price or quote. */
export function hasHotKind(k: QuestionKinds): boolean {
  return k.proposesTime || k.meetingWord || k.priceWord;
}
