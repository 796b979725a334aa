// Learning adapts wording and style, never facts. A sentence a human added for one prospect ("Congratulations on
// the new contract!", "For Acme we can do $1,900 for the first quarter", "Great meeting you at Web Summit") is
// about that prospect; replayed on another prospect's draft it states something false. So text coming from an
// edit is carried over only when every word it brings is either already in this draft or this prospect's
// reply, part of the wording the engine itself used, or ordinary courtesy ("Looking forward to it!", "Tot snel!").
// Numbers never carry over, except a call's length ("a 15-minute call"), which is how the team books meetings.

import { fold } from './when';

const STOP = new Set(`the and for with your this that have will would could just also very from what when they them then than there their about into over some more most such only other been were was are our you its it's
der die das und mit für fur ihr ihre ihnen sie wir uns ein eine einen dem den des ist sind auch noch sehr wenn dass oder aber nicht dann bitte
les des une pour avec vous nous votre vos notre est sont dans sur par que qui pas plus tout cette ces mais aussi tres
los las una para con que por del usted ustedes nuestro nuestra muy pero como este esta esto todo
het een van voor met wij ons onze uw zijn maar ook nog dat die dit als naar wel even heel
unser unsere unseren unserem unserer mich dich sich euch wird werden hier schon doch wieder immer habe haben
avoir être suis sommes faire fait cela leur leurs estoy están tener hacer wordt worden hebben heeft meer deze haar`.split(/\s+/));

const COURTESY = `looking forward hope hoping great good glad happy thanks thank cheers talk speak soon chat call meeting time week weekend
help question questions anything else answer reach feel free know reply here quick short brief minute minutes invite calendar slot
works work suits suit sounds sound perfect wonderful lovely nice best wishes regards kind warm again note touch back shortly later
meanwhile send take look love like wanted really definitely absolutely certainly course welcome pleasure hear hearing catch chance
enjoy productive useful helpful worth keep posted today tomorrow mind hesitate show walk
freue freuen gespräch gespräche austausch termin woche wochenende heute gerne danke vielen beste grüße viele schöne schönen gruß
rückmeldung melden fragen frage jederzeit kurz kurzes kurze minuten einladung kalender passt passen perfekt super prima toll bald hören
wünsche erfolg alles gute freundliche sprechen
plaisir échanger échange échanges ravi ravie hâte bientôt merci beaucoup bonne belle journée semaine hésitez disposition rapide
rapidement invitation agenda parfait excellent cordialement volontiers entendu retour
gracias saludo saludos gusto encantado encantada pronto hablamos cualquier duda dudas aquí estoy quedo disposición llamada breve
minutos invitación calendario perfecto genial semana buen buena excelente
snel graag bedankt dank groet groeten fijne fijn week weekend vragen vraag gerust laat weten hoor horen gesprek kort korte minuten
uitnodiging agenda prima perfect leuk spreken bellen succes`;

// Crude but language-neutral: "looks" and "look", "questions" and "question" share a stem.
const stem = (w: string) => (w.length <= 5 ? w.slice(0, 4) : w.slice(0, 5));
const COURTESY_STEMS = new Set(COURTESY.split(/\s+/).map((w) => stem(fold(w))));

/** An ordinary word of courtesy in one of the five languages ("Gespräch", "plaisir", "gracias"). */
export function isCourtesy(word: string): boolean {
  return COURTESY_STEMS.has(stem(fold(word)));
}
const DURATION = /\b\d{1,3}[- ]?(?:min(?:ute)?s?|minuten|minutos|minuutjes|minuten)\b|\b\d{1,3}-minute\b|\b\d{1,3}-minütige[nrs]?\b|\b\d{1,3} minutes\b/gi;

function contentWords(text: string): string[] {
  return (fold(text).match(/[\p{L}]+/gu) ?? []).filter((w) => w.length >= 4 && !STOP.has(w));
}

/**
 * True when `text` (from a human's edit) would bring something this prospect's thread doesn't have: a name,
 * an event, a number. `allowed` is the text whose words may appear (this draft, this reply, the engine's own
 * original draft); `names` are words allowed as they are (the lead's first name, the company).
 */
export function bringsFacts(text: string, allowed: string, names: string[] = []): boolean {
  const rest = text.replace(DURATION, ' ');
  const numbers = rest.match(/\d[\d.,]*/g) ?? [];
  const allowedFold = fold(allowed);
  if (numbers.some((n) => !allowedFold.includes(n))) return true;
  const known = new Set([...contentWords(allowed), ...names.flatMap((n) => contentWords(n))].map(stem));
  return contentWords(rest).some((w) => !known.has(stem(w)) && !COURTESY_STEMS.has(stem(w)));
}
