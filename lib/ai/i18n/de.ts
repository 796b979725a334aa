// German drafts. "Sie" unless the prospect wrote "du" (or the tone is casual); a first name with "Sie" is the
// normal register of German B2B email today. Sign-offs carry no comma ("Viele Grüße"), as in German letters.

import { AT, formatDay, formatSlot, joinAnd, joinOr } from '../dates';
import type { Register } from '../lang';
import type { Per } from '../price';
import { cap, type Phrases } from './phrases';

const PER: Record<Per, string> = { month: ' pro Monat', year: ' pro Jahr', user: ' pro Nutzer', meeting: ' pro Termin', lead: ' pro Lead', hour: ' pro Stunde' };

export function de(register: Register): Phrases {
  const f = register === 'formal';
  const v = (formal: string, informal: string) => (f ? formal : informal);
  const list = (xs: string[]) => joinAnd(xs, 'de');
  const yourTime = v('(Ihre Ortszeit)', '(deine Ortszeit)');
  return {
    lang: 'de',
    register,
    greeting: (first, tone, medium) => (first ? `Hallo ${first}${medium === 'email' ? ',' : '!'}` : tone === 'formal' ? 'Guten Tag,' : `Hallo${medium === 'email' ? ',' : '!'}`),
    signOff: (tone) => (tone === 'formal' ? 'Mit freundlichen Grüßen' : 'Viele Grüße'),
    slot: (s) => formatSlot(s, 'de'),
    sameDay: (day, times) => `${formatDay(day, 'de')} ${AT.de} ${joinOr(times, 'de')}`,
    yourTime,
    price: (p, noContract) => `${p.from ? 'Die Preise beginnen bei' : 'Der Preis liegt bei'} ${p.amount}${p.per ? PER[p.per] : ''}${noContract ? ', ohne lange Vertragsbindung' : ''}.`,
    integrates: (tools) => `Wir sind mit ${list(tools)} integriert.`,
    clients: (names) => `Zu unseren Kunden gehören ${list(names)}.`,
    thanks: v('Danke für Ihre Rückmeldung.', 'Danke für deine Rückmeldung.'),
    meetingOpen: v('Sehr gerne — lassen Sie uns telefonieren.', 'Sehr gerne — lass uns telefonieren.'),
    meetingOpenBack: v('Sehr gerne — lassen Sie uns nach Ihrer Rückkehr telefonieren.', 'Sehr gerne — lass uns nach deiner Rückkehr telefonieren.'),
    rescheduleOpen: 'Kein Problem — hier ein paar andere Termine.',
    focus: (company) => `In 20 Minuten konzentriere ich mich auf das, was für ${company ?? v('Sie', 'dich')} relevant ist.`,
    askSlots: (l) => `Würde ${v('Ihnen', 'dir')} ${l} ${yourTime} passen?`,
    invite: v('Ich schicke Ihnen dann direkt eine Kalendereinladung.', 'Ich schicke dir dann direkt eine Kalendereinladung.'),
    fallback: v('Falls nichts davon passt, nennen Sie mir gern zwei, drei Zeiten, die besser gehen.', 'Falls nichts davon passt, nenn mir gern zwei, drei Zeiten, die besser gehen.'),
    confirm: (when) => `${cap(when)} ${yourTime} passt mir sehr gut — ich schicke ${v('Ihnen', 'dir')} gleich eine Kalendereinladung.`,
    changes: v('Falls sich etwas ändert, geben Sie mir einfach kurz Bescheid.', 'Falls sich etwas ändert, gib mir einfach kurz Bescheid.'),
    priceUnknown: (company) => `Der Preis hängt vom Umfang ab — statt einer pauschalen Spanne nenne ich ${v('Ihnen', 'dir')} lieber eine konkrete Zahl für ${company ?? v('Ihr Team', 'dein Team')}.`,
    askTeamSize: v('Wie viele Personen wären auf Ihrer Seite ungefähr beteiligt?', 'Wie viele Personen wären auf deiner Seite ungefähr beteiligt?'),
    integrationYes: (tools) => `Ja, das funktioniert — wir sind mit ${list(tools)} integriert.`,
    integrationCheck: (tools) => `Wie es mit ${list(tools)} genau funktioniert, kläre ich kurz und melde mich dann bei ${v('Ihnen', 'dir')}.`,
    integrationUnknown: `Die Details zur Integration kläre ich kurz mit unserem Team und melde mich dann bei ${v('Ihnen', 'dir')}.`,
    askTools: v('Welche Tools nutzen Sie aktuell?', 'Welche Tools nutzt du aktuell?'),
    proofUnknown: (company) => `Gerne schicke ich ${v('Ihnen', 'dir')} eine kurze Fallstudie von einem Team, das ${company ?? v('Ihrem', 'deinem')} ähnlich ist.`,
    caseStudy: `Gerne schicke ich ${v('Ihnen', 'dir')} auch eine kurze Fallstudie dazu.`,
    showOnScreen: `Am einfachsten zeige ich es ${v('Ihnen', 'dir')} kurz am Bildschirm — das dauert etwa 15 Minuten.`,
    check: `Gute Frage — das kläre ich kurz und melde mich dann bei ${v('Ihnen', 'dir')}.`,
    softCta: (company, l) => `Gerne zeige ich ${v('Ihnen', 'dir')} in einem kurzen Gespräch, wie das für ${company ?? v('Sie', 'dich')} aussehen würde — würde ${v('Ihnen', 'dir')} ${l} ${yourTime} passen?`,
    noCallCta: v('Bei weiteren Fragen antworten Sie einfach auf diese Nachricht.', 'Bei weiteren Fragen antworte einfach auf diese Nachricht.'),
    shortVersion: 'Gerne — hier die Kurzfassung.',
    overviewToday: `Gerne schicke ich ${v('Ihnen', 'dir')} heute noch eine kurze Übersicht.`,
    infoCta: (company) => `Wenn das für ${company ?? v('Sie', 'dich')} interessant klingt, zeige ich es ${v('Ihnen', 'dir')} gern in 15 Minuten — ansonsten ${v('antworten Sie', 'antworte')} bei Fragen einfach hier.`,
    laterAck: 'Verstehe ich gut — danke für die offene Rückmeldung.',
    laterPlan: (date, monthStart, month) => (monthStart ? `Dann melde ich mich Anfang ${month} wieder bei ${v('Ihnen', 'dir')}.` : `Dann melde ich mich am ${date} wieder bei ${v('Ihnen', 'dir')}.`),
    laterChange: v('Falls sich vorher etwas ändert, antworten Sie einfach auf diese Nachricht.', 'Falls sich vorher etwas ändert, antworte einfach auf diese Nachricht.'),
    internalAck: v('Das ergibt Sinn — danke, dass Sie es sich anschauen.', 'Das ergibt Sinn — danke, dass du es dir anschaust.'),
    internalPlan: (date) => `Ich melde mich am ${date} noch einmal, falls ich vorher nichts von ${v('Ihnen', 'dir')} höre.`,
    referralThanks: 'Danke für den Hinweis.',
    referralAsk: (name) =>
      name
        ? v(`Könnten Sie mich kurz mit ${name} bekannt machen? Oder, falls einfacher, mir die E-Mail-Adresse schicken — dann melde ich mich direkt und erwähne, dass der Hinweis von Ihnen kam.`, `Könntest du mich kurz mit ${name} bekannt machen? Oder, falls einfacher, mir die E-Mail-Adresse schicken — dann melde ich mich direkt und erwähne, dass der Hinweis von dir kam.`)
        : v('Könnten Sie mir sagen, wer bei Ihnen der richtige Ansprechpartner ist? Dann melde ich mich direkt dort.', 'Könntest du mir sagen, wer bei euch der richtige Ansprechpartner ist? Dann melde ich mich direkt dort.'),
    referralContact: (name, email) => `Dann schreibe ich ${name} unter ${email} und erwähne, dass der Hinweis von ${v('Ihnen', 'dir')} kam.`,
    whoSource: (medium, phone) => `Berechtigte Frage — ${medium === 'linkedin' ? v('ich bin hier auf LinkedIn auf Ihr Profil gestoßen', 'ich bin hier auf LinkedIn auf dein Profil gestoßen') : `${v('Ihre', 'deine')} ${phone ? 'Nummer' : 'geschäftliche E-Mail-Adresse'} stammt aus öffentlich zugänglichen Geschäftskontaktdaten`}.`,
    whoReason: (company) => `Ich habe mich gemeldet, weil ${company ?? v('Ihr Unternehmen', 'dein Unternehmen')} gut zu dem passt, was wir machen.`,
    whoOptOut: (final) => (final ? `Ich werde ${v('Sie', 'dich')} nicht erneut kontaktieren.` : v('Falls das nicht relevant ist, sagen Sie einfach kurz Bescheid — dann melde ich mich nicht wieder.', 'Falls das nicht relevant ist, sag einfach kurz Bescheid — dann melde ich mich nicht wieder.')),
    ooo: (day, month) => `Danke für den Hinweis — ich melde mich nach ${v('Ihrer', 'deiner')} Rückkehr${day ? ` am ${day}` : month ? ` im ${month}` : ''} wieder.`,
    noThanks: v('Danke für Ihre Rückmeldung — das weiß ich zu schätzen.', 'Danke für deine Rückmeldung — das weiß ich zu schätzen.'),
    covered: v('Dann sind Sie ja bereits gut aufgestellt.', 'Dann bist du ja bereits gut aufgestellt.'),
    noFollowUp: 'Ich melde mich dazu nicht weiter.',
    wish: 'Weiterhin viel Erfolg',
    unsubscribe: v('Verstanden — ich habe Sie aus unserem Verteiler entfernt; Sie hören nicht mehr von uns.', 'Verstanden — ich habe dich aus unserem Verteiler entfernt; du hörst nicht mehr von uns.'),
    apology: v('Entschuldigen Sie die Störung.', 'Entschuldige die Störung.'),
    unclearAsk: v('Wäre ein kurzes Gespräch hilfreich, oder ist Ihnen eine kurze Übersicht per E-Mail lieber?', 'Wäre ein kurzes Gespräch hilfreich, oder ist dir eine kurze Übersicht per E-Mail lieber?'),
    resourceSoon: `Sehr gerne — ich schicke ${v('Ihnen', 'dir')} die Unterlagen in Kürze.`,
    inShort: (h) => `Kurz zusammengefasst: ${h}`,
  };
}
