// Reads what the lead actually asked for. The classifier says how warm a reply is;
// this says what to do about it (answer pricing, propose times, close politely…).
// Patterns are deliberately explicit: a wrong intent produces a confidently wrong
// draft, so anything not matched falls back to a low-confidence clarifying reply.

import { MONTHS, WEEKDAYS, addDays, earlyInMonth, monthNames, onOrAfterBusinessDay, parseIsoDate, utcDay, type Slot } from './dates';
import { detectReturnDate } from '../classify/offline';
import { findTools } from './context';
import { LEX, REFERRAL_LEX } from './intent_lex';
import { LANGS } from './lang';
import { dayMeant, fold, pickOffered, readWhen } from './when';

export type QuestionKind = 'pricing' | 'how_it_works' | 'integration' | 'proof' | 'differentiation' | 'timeline' | 'question';
export type IntentKind =
  | 'unsubscribe' | 'ooo' | 'referral' | 'who_are_you' | 'later' | 'not_interested' | 'internal_review'
  | 'confirm_time' | 'meeting' | QuestionKind | 'send_info' | 'positive' | 'unclear';

/** `role` is as the lead wrote it without the possessive ("head of sales", "marketing team"). */
export interface Referral { name: string | null; role: string | null; email: string | null; introduced: boolean; forwarded: boolean }

export interface Intent {
  primary: IntentKind;
  /** How specific the match was (0..1); multiplied into the final confidence. */
  specificity: number;
  questions: QuestionKind[];
  wantsMeeting: boolean;
  /** Lead turned down the times we offered. */
  reschedule: boolean;
  /** Lead asked not to have a call ("just email it over"): no meeting CTA. */
  noCall: boolean;
  alreadyCovered: boolean;
  weekdays: number[];
  /** Weekdays the lead said they can't do. */
  blockedWeekdays: number[];
  nextWeek: boolean;
  /** Lead mentioned being away ("on holiday next week, but keen"): meet after that. */
  notBefore: Date | null;
  proposed: { day: Date; minutes: number } | null;
  referral: Referral | null;
  later: { target: Date; monthStart: boolean } | null;
  tools: string[];
  questionText: string | null;
}

const RE = {
  unsubscribe: /\b(unsubscribe|remove me|take me off|opt(?:-| )?out|stop (?:emailing|messaging|contacting|sending|texting)|do not (?:contact|email|message|text)|don'?t (?:contact|email|message|text) me|leave me alone|no more (?:emails|messages)|remove (?:my|this) (?:email|address|number))\b|^\s*stop[.!]?\s*$/i,
  ooo: /\b(out of (?:the )?office|on (?:annual |parental |maternity |paternity |sick )?leave|on (?:vacation|holiday)|limited access to (?:my )?email|auto(?:matic|mated)?[- ]reply)\b/i,
  who: /\b(who (?:are|is) (?:you|this)|who'?s this|who gave you|how did you (?:get|find)|where did you (?:get|find)|how do you know me|why do you have my|do i know you|have we (?:met|spoken)|what is this (?:about|regarding)|is this (?:spam|automated|a bot)|why (?:are you|did you|you) (?:emailing|contacting|messaging|reaching|reach))\b/i,
  laterExplicit: /\b(next (?:quarter|month|year)|q[1-4]|in (?:a few|a couple of|\d+|two|three|four|five|six|a) (?:weeks?|months?)|after (?:the )?(?:holidays|new year|summer|christmas|budget\w*)|new year|revisit|circle back|check back|touch base (?:later|again|in)|(?:reach|ping|follow|get) (?:back )?(?:out |up |in touch )?(?:again )?(?:with me |to me )?(?:later|in (?:a few|a couple of|\d+|two|three|four|six|a) \w+|next \w+|after \w+|around \w+)|later (?:this|in the) year|early next year|come back to (?:me|us)|bad time|not the right time|timing (?:isn'?t|is not|isn’t))\b/i,
  laterMonth: new RegExp(`\\b(?:in|after|around|until|from|by|mid|early|late)[- ](${MONTHS.join('|')})\\b`, 'i'),
  internal: /\b((?:talk|speak|check|discuss|chat) (?:to|with|it with|this with) (?:my|the|our) (?:team|boss|manager|partners?|co-?founders?|ceo|cto|cfo|board|colleagues|director|head of \w+)|run (?:it|this) (?:by|past)|discuss (?:it |this )?internally|think (?:it over|about it)|mull (?:it|this) over|let me think|get back to you|come back to you)\b/i,
  laterSoft: /\b(not (?:right )?now|maybe later|not at the moment|not at this time|too busy)\b/i,
  notInterested: /\b(not interested|no,? thanks|no,? thank you|not for us|we'?re (?:all )?(?:good|set|covered)|not a (?:good )?fit|no need|not looking|don'?t need|not relevant|(?:we'?ll|i'?ll) pass|pass on this)\b/i,
  alreadyCovered: /\b(already (?:have|use|using|work with|working with|got)|in-house|happy with (?:our|the|my) (?:current|existing)|for us already|already (?:handled|covered|sorted)|we have (?:a|an) (?:agency|team|vendor|tool|solution))\b/i,
  pricing: /(\b(?:pric(?:e|es|ing)|costs?|how much|budget|fees?|your rates?|quote|charge|expensive|ballpark|per month)\b|[$€£]\d)/i,
  // Contract terms are a pricing question only when asked ("under contract until June" is not).
  terms: /\b(commitment|contract|minimum term|lock-?in|cancel\w*|notice period)\b[^.!]*\?/i,
  how: /\b(how (?:does|do|would|will) (?:it|this|that|you|your \w+|the \w+) work|how do you (?:guys )?(?:do|run|handle) (?:it|that|this)|what'?s the process|what is the process|walk me through|what exactly (?:do|does|would|is)|what does (?:it|that|this|the \w+) (?:involve|entail|include|look like)|how would (?:this|that|it) (?:work|look)|what do you (?:actually )?do|how (?:the |your |this |that |it )?[\w-]*\s?works|explain)\b/i,
  differentiation: /\b(what makes you (?:different|unique|better|stand out)|how (?:are|is) (?:you|this|it) different|(?:different|better) (?:from|than) (?:other|the other|\w+ other)|why (?:you|should we|would we|choose you)|what sets you apart|vs\.? (?:other|in-house))\b/i,
  timeline: /\b(how (?:long|soon|quickly|fast)|when (?:will|would|could) (?:we|i) (?:see|get|start)|timeline|time to (?:results|value|launch)|how many weeks)\b/i,
  integration: /\b(integrat\w*|api|plug (?:in|into)|(?:connect|sync) (?:to|with|into) (?:our|my|your) (?!team)\w+|compatible|(?:does|do|would|will) (?:it|this|that|you) (?:work|play) (?:with|nicely with))\b/i,
  proof: /\b(who else|other (?:clients|customers|companies|brands)|case stud(?:y|ies)|references|reference (?:customers|clients|calls?)|any reference|testimonials?|examples? of|track record|similar companies|worked with (?:anyone|any|companies|others|similar)|any (?:clients|customers)|who do you work with|which companies|what companies|who uses (?:it|this))\b/i,
  sendInfo: /\b((?:send|email|share|forward|drop)\b[^.?!]{0,25}\b(?:info|information|details|deck|brochure|one[- ]pager|overview|materials?|pdf|presentation|case stud(?:y|ies))\b|send (?:me |us |over |through )?(?:some |more |a |the |any )?(?:more )?(?:info|information|details|deck|brochure|one[- ]pager|overview|materials?|case stud(?:y|ies)|it(?: over)?|something(?: over| through)?|that(?: over| through)?)|more (?:info|information|details)|tell me more|share (?:some |more )?(?:info|information|details)|anything in writing|in writing|learn more|read more|take a look|have a look)\b/i,
  meeting: /\b(call|chat|meet|meeting|demo|zoom|teams call|google meet|hop on|jump on|catch up|calendar|calendly|invite|schedule|book (?:a |some )?time|availability|(?:are you|i'?m|i am|we'?re) (?:available|free)|available (?:on|next|this|tomorrow|mon|tue|wed|thu|fri)|free (?:on|next|this|tomorrow)|what times?|when works|when are you|let'?s (?:talk|connect|chat|set (?:it|something|a time) up)|happy to (?:talk|chat|connect)|open to (?:a |talking|chatting)|(?:talk|speak) (?:next|this|tomorrow|on)|when (?:can|could|shall|should) we|(?:can|could) you do|(?:can|could|shall) we (?:talk|speak|meet|chat|connect))\b/i,
  reschedule: /\b(none of (?:those|these|them|the times?) (?:work|suit)|(?:any )?other (?:days?|times?|slots?)|(?:doesn'?t|don'?t|won'?t) work for me|can'?t (?:make|do) (?:it|that|those|then)|reschedule|move (?:it|our call|the call))\b/i,
  noCall: /\b(no (?:need for a |need to |time for a )?(?:call|meeting|demo)s?|(?:don'?t|do not) (?:want|need|have time for) (?:a |to )?(?:call|meeting|demo|chat|jump on)|without a call|rather not (?:do a |have a |jump on a )?(?:call|meeting)|just (?:send|email)|(?:email|writing) (?:is|would be|works) (?:better|best|easier|fine)|prefer (?:email|writing))\b/i,
  positive: /\b(yes|yeah|yep|sure|sounds (?:good|great|interesting)|interested|keen|love to|would like|let'?s do it|go ahead|definitely|absolutely|why not|makes sense)\b/i,
  wrongPerson: /\b(not the (?:right|best) (?:person|contact)|wrong person|not my (?:area|department|call)|not (?:in charge|responsible) (?:of|for)|(?:isn'?t|is not) (?:my|me))\b/i,
  introduced: /\b(cc'?(?:ing|'?d)?|copied|copying|looping in|looped in|adding|added)\b/i,
  forwarded: /\b(forwarded|forwarding|passed (?:it|this|your \w+) (?:on|along)|passing (?:it|this) (?:on|along))\b/i,
};

const NAME = "([A-Z][a-z]+(?:[ -][A-Z][a-z'\\-]+)?)";
const ROLE = '(?:(?:our|my)\\s+([A-Za-z][\\w -]{1,40}?),?\\s+)?';
const REFERRAL_RES = [
  new RegExp(`\\b(?:[Tt]alk|[Ss]peak|[Cc]hat)\\s+(?:to|with)\\s+${ROLE}${NAME}`),
  new RegExp(`\\b(?:[Rr]each out to|[Cc]ontact|[Ee]mail|[Pp]ing|[Gg]et in touch with|[Cc]onnect with|[Tt]ry|[Ll]oop(?:ing)? in|[Cc][Cc]'?(?:ing|'?d)?|[Cc]opy(?:ing)?|[Cc]opied|[Aa]dd(?:ing|ed)|[Ff]orward(?:ed|ing) (?:this|your (?:email|note|message)) to)\\s+${ROLE}${NAME}`),
  new RegExp(`${NAME}\\s*(?:\\([^)]*\\)\\s*)?(?:handles|runs|owns|looks after|is responsible|is in charge|is (?:the|our) (?:right|best) (?:person|contact)|is who you|manages|leads|heads up|would be (?:the )?(?:right|better|best))`),
];
const NOT_NAMES = new Set(['I', 'We', 'You', 'Our', 'My', 'The', 'Me', 'Us', 'Him', 'Her', 'Them', 'Someone', 'Somebody', 'This', 'That', 'It', 'Thanks', 'Thank', 'Please', 'Hi', 'Hello', 'Best', 'If', 'Your', 'He', 'She', 'They']);
const WEEKDAY_OR_MONTH = new RegExp(`^(${[...WEEKDAYS, ...MONTHS].join('|')})\\b`);
const DEPARTMENTS = /^(sales|marketing|finance|procurement|it|hr|legal|ops|operations|growth|engineering|partnerships|revops|support)$/i;

function findReferral(text: string): Referral | null {
  const email = /[\w.+-]+@[\w-]+\.[\w.-]+\w/.exec(text)?.[0] ?? null;
  const n = fold(text);
  const introduced = RE.introduced.test(text) || LEX.introduced.test(n);
  const forwarded = RE.forwarded.test(text) || LEX.forwarded.test(n);
  // Other languages first: their connectors ("an", "con", "met") are not English words the patterns below know.
  const bare = text.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
  if (bare.length === text.length) {
    for (const re of REFERRAL_LEX) {
      const m = re.exec(bare);
      if (!m) continue;
      const at = m.index + m[0].lastIndexOf(m[1]);
      // "Herrn Weber" is the dative of "Herr Weber": name them as they would be addressed.
      const name = text.slice(at, at + m[1].length).replace(/^Herrn\b/, 'Herr');
      const person = name.replace(/^(Herr|Frau|M\.|Mme|Monsieur|Madame|Sr\.|Sra\.|dhr\.|mevr\.|meneer|mevrouw)\s+/, '');
      if (!NOT_NAMES.has(person.split(' ')[0]) && findTools(person).length === 0 && !WEEKDAY_OR_MONTH.test(person)) return { name, role: null, email, introduced, forwarded };
    }
  }
  if (LEX.wrongPerson.test(n)) return { name: null, role: null, email, introduced, forwarded };
  for (const re of REFERRAL_RES) {
    const m = re.exec(text);
    if (!m) continue;
    const raw = (m[2] ?? m[1]).trim();
    const after = /^,?\s*(?:our|my|the)\s+([A-Za-z][\w -]{1,40}?)(?=[.,;!?]|$| who| and)/.exec(text.slice((m.index ?? 0) + m[0].length));
    const role = (m[2] ? m[1]?.trim() : undefined) ?? after?.[1]?.trim() ?? null;
    const first = raw.split(/[ -]/)[0];
    // "Salesforce handles that" / "Monday works" are not people.
    if (NOT_NAMES.has(first) || findTools(raw).length > 0 || WEEKDAY_OR_MONTH.test(raw)) continue;
    if (DEPARTMENTS.test(raw)) return { name: null, role: `${raw.toLowerCase()} team`, email, introduced, forwarded };
    return { name: raw, role, email, introduced, forwarded };
  }
  const role = /\b(?:talk|speak|reach out|contact|email|try|ask|ping)\s+(?:to|with)?\s*(?:our|my)\s+((?:head|director|vp|manager|lead|cmo|cto|ceo|coo|cfo|cro|founder|co-founder|marketing|sales|growth|ops|operations)\b[\w -]{0,30}?)(?=[.,;!?]|$| who| about| on )/i.exec(text);
  if (role) {
    const r = role[1].trim();
    return { name: null, role: /^(marketing|sales|growth|ops|operations)$/i.test(r) ? `${r} team` : r, email, introduced, forwarded };
  }
  if (RE.wrongPerson.test(text) || (email && introduced)) return { name: null, role: null, email, introduced, forwarded };
  return null;
}

const NUM: Record<string, number> = {
  a: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, 'a couple of': 2, 'a few': 3,
  ein: 1, eine: 1, einem: 1, einigen: 3, 'ein paar': 3, zwei: 2, drei: 3, vier: 4, un: 1, une: 1, deux: 2, trois: 3, quatre: 4, quelques: 3,
  unos: 3, unas: 3, 'un par de': 2, dos: 2, tres: 3, cuatro: 4, een: 1, 'een paar': 3, enkele: 3, twee: 2, drie: 3,
};
// Month names of the five languages (from Intl), folded: "im januar", "en janvier", "en enero", "in januari".
const MONTH_OF = new Map<string, number>();
for (const lang of LANGS) monthNames(lang).forEach((n, i) => MONTH_OF.set(fold(n), i));
const MONTH_WORDS = [...MONTH_OF.keys()].sort((a, b) => b.length - a.length).join('|');
const LATER_MONTH = new RegExp(`\\b(?:in|after|around|until|from|by|mid|early|late|im|ab|nach|anfang|mitte|ende|en|apres|debut|fin|a partir de|despues de|principios de|finales de|na|begin|eind|vanaf|per)[- ](?:de |van )?(${MONTH_WORDS})\\b`);

function laterTarget(text: string, now: Date): { target: Date; monthStart: boolean } {
  const t = fold(text);
  const y = now.getUTCFullYear();
  const mo = now.getUTCMonth();
  const month = (m: number, year = m <= mo ? y + 1 : y) => ({ target: earlyInMonth(year, m), monthStart: true });
  const q = /\bq([1-4])\b/.exec(t);
  if (q) return month((+q[1] - 1) * 3);
  if (/next quarter|nachste[ns]? quartal|trimestre prochain|proximo trimestre|trimestre que viene|volgend kwartaal/.test(t)) return month(((Math.floor(mo / 3) + 1) * 3) % 12);
  if (/(new year|next year|after (the )?(holidays|christmas)|nachste[ns]? jahr|neuen jahr|nach (den feiertagen|weihnachten|neujahr)|annee prochaine|apres les fetes|(ano|mes) que viene|proximo ano|volgend jaar|nieuwe jaar)/.test(t)) return month(0);
  if (/after (the )?summer|nach dem sommer|apres l'ete|despues del verano|na de zomer/.test(t)) return month(8);
  if (/next month|nachste[nm]? monat|mois prochain|proximo mes|volgende maand/.test(t)) return month((mo + 1) % 12);
  const named = LATER_MONTH.exec(t);
  if (named) return month(MONTH_OF.get(named[1]) as number);
  const rel = /\b(?:in|dans|dentro de|en|over)\s+(a few|a couple of|a|ein paar|einigen|einem|einer|eine?|quelques|un par de|unos|unas|un|una|une|een paar|enkele|een|\d+|two|three|four|five|six|zwei|drei|vier|deux|trois|quatre|dos|tres|cuatro|twee|drie)\s+(weeks?|months?|wochen|monaten?|semaines|mois|semanas|meses|weken|maanden)\b/.exec(t);
  if (rel) {
    const n = NUM[rel[1]] ?? (Number(rel[1]) || 1);
    const days = /^(week|woch|semain|seman|wek)/.test(rel[2]) ? n * 7 : Math.round(n * 30.4);
    return { target: onOrAfterBusinessDay(addDays(utcDay(now), days)), monthStart: false };
  }
  // "Not right now" with no horizon: two months is long enough to not feel pushy.
  return { target: onOrAfterBusinessDay(addDays(utcDay(now), 61)), monthStart: false };
}

export interface IntentHints {
  /** Slots our last message offered: "Tuesday works" picks the Tuesday one. */
  offered?: Slot[];
  /** The classifier found an opt-out (in any of its five languages). */
  optOut?: boolean;
}

export function detectIntent(text: string, classification: string, now: Date, hints: IntentHints = {}): Intent {
  const t = text.trim();
  const n = fold(t);
  const has = (key: keyof typeof RE) => RE[key].test(t) || (key in LEX && LEX[key as keyof typeof LEX].test(n));
  const at = (key: keyof typeof RE) => {
    const i = t.search(RE[key]);
    return i >= 0 ? i : key in LEX ? n.search(LEX[key as keyof typeof LEX]) : -1;
  };
  const when = readWhen(t, now);
  const weekdays = when.weekdays;
  const away = has('ooo') || /\b(away|off|travell?ing|out|on leave|until|back on|back in|urlaub|unterwegs|bis|absente?|conges|jusqu|vacaciones|hasta|vakantie|afwezig|tot)\b/.test(n);
  const awayNextWeek = away && /\b(away|off|travell?ing|out|holiday|vacation|leave|urlaub|unterwegs|absente?|conges|vacaciones|vakantie|afwezig)\b[^.!?]{0,20}\b(next week|nachste woche|la semaine prochaine|semana que viene|proxima semana|volgende week)\b/.test(n);
  const nextWeek = when.nextWeek && !awayNextWeek;
  const back = away ? detectReturnDate(t, now) : null;
  const notBefore = back ? parseIsoDate(back) : awayNextWeek ? addDays(utcDay(now), ((8 - utcDay(now).getUTCDay()) % 7 || 7) + 7) : null;
  const noCall = has('noCall');
  const questions: Array<[QuestionKind, number]> = [];
  const tools = findTools(t);
  for (const [k, key] of [['pricing', 'pricing'], ['how_it_works', 'how'], ['integration', 'integration'], ['proof', 'proof'], ['differentiation', 'differentiation'], ['timeline', 'timeline']] as const) {
    if (has(key)) questions.push([k, at(key)]);
  }
  if (!questions.some(([k]) => k === 'pricing') && has('terms')) questions.push(['pricing', at('terms')]);
  if (!questions.some(([k]) => k === 'integration') && tools.length > 0 && /\?/.test(t)) questions.push(['integration', t.indexOf(tools[0])]);
  const qs = questions.sort((a, b) => a[1] - b[1]).map(([k]) => k);
  const questionText = /[^.!?\n¿]*\?/.exec(t)?.[0].trim() ?? null;
  // Their own day and time win; else a day or a time that picks one of the slots we offered.
  const day = dayMeant({ ...when, nextWeek }, now);
  const proposed = day && when.time !== null ? { day, minutes: when.time } : pickOffered(when, hints.offered ?? []);
  const base: Intent = {
    primary: 'unclear', specificity: 0.35, questions: qs, wantsMeeting: !noCall && (has('meeting') || has('reschedule') || proposed !== null),
    reschedule: has('reschedule'),
    noCall, alreadyCovered: has('alreadyCovered'), weekdays, blockedWeekdays: when.blockedWeekdays, nextWeek, notBefore, proposed: null, referral: null, later: null, tools, questionText,
  };
  const is = (primary: IntentKind, specificity: number, extra: Partial<Intent> = {}): Intent => ({ ...base, primary, specificity, ...extra });

  if (has('unsubscribe') || hints.optOut) return is('unsubscribe', 0.97, { wantsMeeting: false });
  // A human saying "on holiday next week, but keen" is scored hot by the classifier; respect that.
  if (classification === 'ooo' || (has('ooo') && classification !== 'hot' && classification !== 'warm')) return is('ooo', classification === 'ooo' ? 0.95 : 0.8, { wantsMeeting: false });
  const referral = findReferral(t);
  if (referral) return is('referral', referral.name || referral.role || referral.email ? 0.92 : 0.78, { referral });
  if (has('who')) return is('who_are_you', 0.9);
  const soft = has('laterSoft') && classification !== 'not_interested';
  const later = has('laterExplicit') || LATER_MONTH.test(n) || RE.laterMonth.test(t);
  if (has('internal') && !later && !has('notInterested')) {
    return is('internal_review', 0.85, { later: { target: onOrAfterBusinessDay(addDays(utcDay(now), 7)), monthStart: false }, wantsMeeting: false });
  }
  if (later || soft) {
    return is('later', soft && !later ? 0.7 : 0.9, { later: laterTarget(t, now), wantsMeeting: false });
  }
  // "We already have an agency" with no question or ask is a soft no.
  const quietlyCovered = base.alreadyCovered && !base.wantsMeeting && qs.length === 0 && !has('sendInfo');
  if (has('notInterested') || classification === 'not_interested' || quietlyCovered) {
    return is('not_interested', has('notInterested') ? 0.92 : 0.75, { wantsMeeting: false });
  }
  if (proposed !== null && base.wantsMeeting) return is('confirm_time', 0.95, { proposed });
  const specific = qs.filter((q) => q !== 'question');
  if (specific.length > 0) {
    const spec = { pricing: 0.9, how_it_works: 0.85, integration: 0.88, proof: 0.85, differentiation: 0.8, timeline: 0.8 }[specific[0] as Exclude<QuestionKind, 'question'>];
    return is(specific[0], spec);
  }
  if (has('sendInfo')) return is('send_info', 0.88);
  if (base.wantsMeeting) return is('meeting', weekdays.length || nextWeek || /\b(call|demo|meeting)\b/i.test(t) || LEX.meeting.test(n) ? 0.92 : 0.8);
  if (questionText) return is('question', 0.55, { questions: ['question'] });
  if (has('positive') || classification === 'hot' || classification === 'warm') return is('positive', has('positive') ? 0.7 : 0.55);
  return base;
}
