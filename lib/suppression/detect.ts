import { normalise } from '../classify/offline';
import { OPT_OUT } from '../classify/signals';

// Explicit opt-out requests in a prospect's own words (quoted history already stripped). The classifier's
// OPT_OUT patterns make such a reply `not_interested`; here the same patterns decide who must never be contacted
// again, so two things the classifier can afford to ignore matter: a negated request ("I don't want to
// unsubscribe") and a mention of the mechanism ("what's your unsubscribe rate?", "click here to unsubscribe" in
// a newsletter footer). A reply that complains that the link failed ("your unsubscribe link is broken") is a
// request: the writer tried to leave.
//
// Patterns run on the classifier's normalised text (lower case, no accents, straight quotes).
//
// Bounded work per reply (inbound bodies reach 1 MB; on Workers every request has a CPU budget): a request counts
// when it starts within the first SCAN_CHARS characters of the own text (the prospect's words are at the top; a
// longer "own" text is an unmarked thread or a pasted document), and every check around a match looks at most
// CONTEXT_CHARS either side of it. Before these bounds, "unsubscribe link " repeated over 200 KB took 4.6 s.
const SCAN_CHARS = 10_000;
const CONTEXT_CHARS = 300;

/** Requests the classifier's list does not carry (its list is tuned for labels, not for this). */
const MORE_REQUESTS: RegExp[] = [
  // English
  /\b(don'?t|do not|never) (ever )?(contact|e-?mail|mail|message|write to|reach out to) (me|us)\b/,
  /\bno (more|further) (e-?mails|mails|messages|emails from you)\b/,
  /\b(delete|erase) (my|our) (personal )?(data|details|e-?mail address|e-?mail|address|contact details|information)\b/,
  /\bput (me|us) on (your|the|a) (do[- ]not[- ](contact|e-?mail|mail)|suppression|unsubscribe) list\b/,
  /\bopt (me|us) out\b/,
  // A line that is only the word: "STOP", "Remove.", "Please stop."
  /^(please,? )?(stop|remove|unsubscribe)( me| us| it| this| now| please| pls)?[.!]*$/m,
  // German
  /\b(entfernen|loschen|streichen) sie (mich|uns|meine (e-?mail-?adresse|adresse|daten|kontaktdaten))\b/,
  /\bmeine (daten|adresse|e-?mail-?adresse|kontaktdaten) (loschen|entfernen)\b/,
  /\bmelden sie (mich|uns) (bitte )?([^.?!\n]{0,40} )?ab\b/,
  // "keine Mails mehr verpassen" (not miss any more) is the opposite.
  /\bkeine (e-?mails|mails|nachrichten|werbung) mehr\b(?! (zu )?verpass)/,
  /\b(schreiben|kontaktieren|mailen) sie (mir|mich|uns) nicht mehr\b/,
  // French
  /\b(supprimez|retirez|enlevez|rayez)[- ](moi|nous)\b/,
  /\bsupprimer (mon adresse|mes (donnees|coordonnees)|mon (e-?mail|courriel))\b/,
  /\bne plus (me|nous) (contacter|ecrire|envoyer)\b|\bne (me|nous) (contactez|ecrivez|envoyez) plus\b/,
  /\bne plus m'(ecrire|envoyer)\b|\bne m'(ecrivez|envoyez) plus\b/,
  // Dutch
  /\bhaal (me|mij|ons) (van|uit) (de|uw|jullie|je|deze|het|dit) (lijst|mailinglijst|bestand|verzendlijst|mailing)\b/,
  /\bniet meer (mailen|e-?mailen|contacteren|benaderen)\b|\b(mail|e-?mail|contacteer|benader) (me|mij|ons) niet meer\b/,
  /\bverwijder (mijn|ons) (e-?mail ?adres|adres|gegevens)\b/,
  /\bgeen (e-?mails|mails|berichten) meer\b/,
  // Spanish
  /\b(eliminar|borrar|quitar|sacar)(me|nos) de\b|\b(elimina|borra|quita|saca|elimine|borre|quite|saque|eliminen|borren|quiten|saquen)(me|nos)\b/,
  /\bdejen de (escribir|enviar|contactar|mandar)/,
  /\bno (quiero|queremos|deseo|deseamos) recibir mas (correos|e-?mails|mails|mensajes)\b|\bno (me|nos) (escriban|escribas|envien|mandes|manden) mas\b/,
  /\b(darse|darnos) de baja\b|\bbaja de (la|su|vuestra) lista\b/,
];

const PATTERNS = [...OPT_OUT, ...MORE_REQUESTS].map((re) => new RegExp(re.source, re.flags.replace('g', '') + 'g'));

/**
 * Data-protection requests (GDPR art. 17 erasure, art. 21 objection, a withdrawn consent; Spain's LSSI art. 21 for
 * commercial mail): formal letters that never say "unsubscribe" but leave no doubt. Only first-person or imperative
 * forms, and never inside a question (DATA_QUESTION): "how do I exercise my right to erasure?" asks about the
 * product. Seen in round 11 of the classifier sets, labelled not_interested with the do-not-contact list empty.
 */
const DATA_PROTECTION = [
  /\bi (hereby )?(object|am objecting) to (the )?(processing|use) of my (personal )?data\b|\bi (hereby )?(withdraw|revoke) my consent\b/,
  /\bi (hereby )?(request|demand) the (erasure|deletion) of (all )?(of )?my (personal )?data\b|\bi (am exercising|hereby exercise) my right (to erasure|to object|to be forgotten)\b/,
  /\b(please )?(delete|erase|remove) all (of )?my (personal )?data\b|\bplease (remove|erase) my (personal )?data\b/,
  /\bwiderspreche (ich )?(hiermit )?der (nutzung|verarbeitung|verwendung) meiner (personenbezogenen )?daten\b|\bich (widerrufe|entziehe) (hiermit )?meine einwilligung\b|\bich lege (hiermit )?widerspruch (gegen|ein)\b/,
  /\b(ich (verlange|beantrage|fordere)|(verlange|beantrage|fordere) ich) (hiermit )?die loschung (meiner|aller meiner) (personenbezogenen )?daten\b|\bloschen sie (bitte )?(alle )?meine (personenbezogenen )?daten\b/,
  /\bje m'oppose (au traitement|a l'utilisation|a l'exploitation) de mes donnees\b|\bje retire mon consentement\b|\bj'exerce mon droit (d'opposition|a l'effacement|de suppression|a l'oubli)\b/,
  /\bmerci d'effacer (toutes )?mes donnees\b|\b(effacez|supprimez) (toutes )?mes donnees\b/,
  /\b(ejerzo|ejercito) (mi|el) derecho (de supresion|de oposicion|de cancelacion|al olvido)\b|\bsolicito la (supresion|eliminacion|cancelacion) de (todos )?mis datos\b/,
  /\bse abstengan? de (enviar|remitir|mandar)(me|nos)? [^.?!\n]{0,60}\b(comunicaciones|correos|e-?mails|publicidad|mensajes)\b|\b(eliminen|borren|supriman) (todos )?mis datos\b/,
  /\bik (maak|teken) (hierbij )?bezwaar (tegen|aan)\b|\bik trek (hierbij )?mijn toestemming in\b|\bverwijder (al )?mijn persoonsgegevens\b/,
  /\b(verzoek|vraag) ik (u|jullie) (om )?(al )?mijn (persoons)?gegevens te (verwijderen|wissen)\b|\b(mij|ons) niet meer te (mailen|e-?mailen|contacteren|benaderen)\b/,
].map((re) => new RegExp(re.source, 'g'));
// A sentence that asks: it ends in "?" or opens with a question word.
const QUESTION_OPENING =
  /^\s*(how|can|could|may|what|when|do|does|is|are|wie|kann|konnen|wann|was|muss|comment|quand|puis|pouvez|est-ce|como|cuando|puedo|pueden|podemos|hoe|kan|kunnen|wanneer|moet)\b/;

// A negator shortly before the request, in the same clause, with only "want to"-style words between:
// "I don't want to unsubscribe", "ich möchte mich nicht abmelden", "je ne veux pas me désinscrire",
// "no quiero darme de baja", "ik wil me niet afmelden". "Not interested, unsubscribe" is not one (the comma
// ends the clause, and "interested" is no filler word). "Can't" is deliberately not a negator: "I can't
// unsubscribe" is someone trying to.
const NEGATED = new RegExp(
  String.raw`\b(don'?t|do not|does not|doesn'?t|didn'?t|did not|won'?t|will not|wouldn'?t|would not|never|no need to|not|nicht|kein|keine|keinen|pas|niet|nooit|no (quiero|queremos|deseo|deseamos|necesito|necesitamos|hace falta))` +
    String.raw`(\s+(really|actually|ever|want|wish|need|mean|meant|intend|plan|try|trying|tried|ask|asked|going|have|like|to|be|being|get|me|us|you|please|mich|uns|mij|ons|moi|nous|nos))*\s*$`,
);
const CLAUSE_END = /[.;:!?\n,]|\b(but|aber|mais|maar|pero)\b/g;

// The mechanism named, not used: the noun after the word, noun plurals, newsletter-footer wording.
const MECHANISM_NOUN =
  /^[\w'-]*\s+(links?|buttons?|pages?|options?|rates?|process(es)?|footers?|urls?|features?|handling|flows?|mechanisms?|functions?|functionality|settings?|headers?|compliance|requests|management|tracking|polic(y|ies)|laws?|rules?)\b/;
const NOUN_PLURAL = /^(unsubscribes|unsubscribers|unsubscriptions|opt-?outs|desinscriptions|desabonnements)\b/;
const FRENCH_NOUN_BEFORE = /\b(lien|bouton|page|option|taux|gestion|processus|formulaire|mention|demandes?)s? (de |d')$/;
const FOOTER =
  /\b(click (here )?to unsubscribe|to unsubscribe,? (click|visit|use|follow|go to)|if you (would like|wish|want|prefer|no longer wish) to (unsubscribe|opt[- ]?out)|you (can|may) (unsubscribe|opt[- ]?out) (at any time|here|by|using))\b/;
// A mention that says the mechanism failed is a request after all.
const FAILED =
  /\b(broken|doesn'?t work|does not work|not working|isn'?t working|didn'?t work|did not work|won'?t work|fails?|failed|failing|dead|error|404|still (get|getting|receive|receiving)|ne (fonctionne|marche) pas|funktioniert nicht|werkt niet|no funciona)\b/;

export type OptOutRequest = { phrase: string };

/**
 * The opt-out request in a reply's own text, or null: `phrase` is the sentence that carries it (normalised,
 * at most 120 characters), for the person who reviews the do-not-contact list.
 */
export function detectOptOut(text: string): OptOutRequest | null {
  // Read past SCAN_CHARS by CONTEXT_CHARS, so a request near the limit is judged with the words that follow it
  // ("unsubscribe | link" is a mention). Normalising can shift offsets by a few characters; the limit is approximate.
  const own = normalise((text ?? '').slice(0, SCAN_CHARS + CONTEXT_CHARS));
  if (!own) return null;
  // Also with punctuation flattened, as the classifier does: "Stop. Emailing. Me."
  const flat = own.replace(/[.,;!]+/g, ' ').replace(/\s+/g, ' ');
  for (const re of DATA_PROTECTION) {
    for (const m of own.matchAll(re)) {
      if (m.index! >= SCAN_CHARS) break;
      if (negated(own, m.index!) || asked(own, m.index!)) continue;
      return { phrase: sentenceAround(own, m.index!, m[0].length) };
    }
  }
  for (const candidate of flat === own ? [own] : [own, flat]) {
    for (const re of PATTERNS) {
      for (const m of candidate.matchAll(re)) {
        if (m.index! >= SCAN_CHARS) break;
        if (negated(candidate, m.index!) || mentionOnly(candidate, m.index!)) continue;
        return { phrase: sentenceAround(candidate, m.index!, m[0].length) };
      }
    }
  }
  return null;
}

function clauseBefore(text: string, index: number): string {
  const prefix = text.slice(Math.max(0, index - 60), index);
  let start = 0;
  for (const m of prefix.matchAll(CLAUSE_END)) start = m.index! + m[0].length;
  return prefix.slice(start);
}

function negated(text: string, index: number): boolean {
  return NEGATED.test(clauseBefore(text, index));
}

/** The sentence around `index`, looked for at most CONTEXT_CHARS either side (one long run-on line is cut there). */
function sentenceOf(text: string, index: number): string {
  const from = Math.max(0, index - CONTEXT_CHARS);
  const before = text.slice(from, index);
  const start = from + Math.max(...['\n', '.', '!', '?'].map((p) => before.lastIndexOf(p))) + 1;
  const after = text.slice(index, index + CONTEXT_CHARS);
  const ends = ['\n', '.', '!', '?'].map((p) => after.indexOf(p)).filter((i) => i >= 0);
  return text.slice(start, index + (ends.length ? Math.min(...ends) : after.length));
}

/** Whether the sentence around `index` is a question (a data-protection question is no request). */
function asked(text: string, index: number): boolean {
  const after = text.slice(index, index + CONTEXT_CHARS);
  const ends = ['\n', '.', '!', '?'].map((p) => after.indexOf(p)).filter((i) => i >= 0);
  if (ends.length && after[Math.min(...ends)] === '?') return true;
  return QUESTION_OPENING.test(sentenceOf(text, index));
}

function mentionOnly(text: string, index: number): boolean {
  const rest = text.slice(index, index + CONTEXT_CHARS);
  const mention =
    MECHANISM_NOUN.test(rest) ||
    NOUN_PLURAL.test(rest) ||
    FRENCH_NOUN_BEFORE.test(text.slice(Math.max(0, index - 30), index)) ||
    FOOTER.test(text.slice(Math.max(0, index - 40), index + 40));
  return mention && !FAILED.test(sentenceOf(text, index));
}

function sentenceAround(text: string, index: number, length: number): string {
  const sentence = sentenceOf(text, index).trim();
  if (sentence.length <= 120) return sentence;
  const match = text.slice(index, index + length);
  const at = Math.max(0, sentence.indexOf(match));
  const from = Math.max(0, at - 40);
  const window = sentence.slice(from, from + 120);
  // Cut at word boundaries so the phrase does not start or end mid-word.
  return window.replace(from > 0 ? /^\S*\s/ : /^/, '').replace(/\s\S*$/, '').trim();
}
