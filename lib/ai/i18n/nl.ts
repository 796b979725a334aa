// Dutch drafts. "u" unless the prospect wrote "je/jij" (or the tone is casual); "Beste" opens a formal email.

import { AT, formatDay, formatSlot, joinAnd, joinOr } from '../dates';
import type { Register } from '../lang';
import type { Per } from '../price';
import { cap, type Phrases } from './phrases';

const PER: Record<Per, string> = { month: ' per maand', year: ' per jaar', user: ' per gebruiker', meeting: ' per afspraak', lead: ' per lead', hour: ' per uur' };

export function nl(register: Register): Phrases {
  const f = register === 'formal';
  const v = (formal: string, informal: string) => (f ? formal : informal);
  const list = (xs: string[]) => joinAnd(xs, 'nl');
  const yourTime = v('(uw lokale tijd)', '(jouw lokale tijd)');
  const u = v('u', 'je');
  return {
    lang: 'nl',
    register,
    greeting: (first, tone, medium) => {
      const end = medium === 'email' ? ',' : '!';
      if (!first) return tone === 'formal' ? 'Goedendag,' : `Hallo${end}`;
      return `${tone === 'formal' ? 'Beste' : f ? 'Hallo' : 'Hoi'} ${first}${end}`;
    },
    signOff: (tone) => (tone === 'casual' ? 'Groeten,' : 'Met vriendelijke groet,'),
    slot: (s) => formatSlot(s, 'nl'),
    sameDay: (day, times) => `${formatDay(day, 'nl')} ${AT.nl} ${joinOr(times, 'nl')}`,
    yourTime,
    price: (p, noContract) => `${p.from ? 'Onze prijzen beginnen bij' : 'De prijs is'} ${p.amount}${p.per ? PER[p.per] : ''}${noContract ? ', zonder langlopend contract' : ''}.`,
    integrates: (tools) => `We hebben een koppeling met ${list(tools)}.`,
    clients: (names) => `We werken onder meer voor ${list(names)}.`,
    thanks: v('Bedankt voor uw reactie.', 'Bedankt voor je reactie.'),
    meetingOpen: 'Graag — laten we even kort bellen.',
    meetingOpenBack: `Graag — laten we kort bellen als ${v('u terug bent', 'je terug bent')}.`,
    rescheduleOpen: 'Geen probleem — hier een paar andere opties.',
    focus: (company) => `In 20 minuten focus ik op wat relevant is voor ${company ?? v('u', 'jou')}.`,
    askSlots: (l) => `Komt ${l} ${yourTime} ${u} uit?`,
    invite: `Ik stuur ${u} dan meteen een agenda-uitnodiging.`,
    fallback: 'Als geen van deze momenten uitkomt, noem dan gerust twee of drie tijden die beter passen.',
    confirm: (when) => `${cap(when)} ${yourTime} komt mij goed uit — ik stuur ${u} zo een agenda-uitnodiging.`,
    changes: 'Als er iets verandert, laat het me gerust weten.',
    priceUnknown: (company) => `De prijs hangt af van de omvang, dus in plaats van een algemene bandbreedte maak ik liever een concreet voorstel voor ${company ?? v('uw team', 'je team')}.`,
    askTeamSize: v('Hoeveel mensen zouden er aan uw kant ongeveer bij betrokken zijn?', 'Hoeveel mensen zouden er aan jouw kant ongeveer bij betrokken zijn?'),
    integrationYes: (tools) => `Ja — we hebben een koppeling met ${list(tools)}.`,
    integrationCheck: (tools) => `Ik zoek uit hoe het precies werkt met ${list(tools)} en kom erop terug.`,
    integrationUnknown: 'Ik check de details van de koppeling met ons team en kom erop terug.',
    askTools: v('Welke tools gebruikt u op dit moment?', 'Welke tools gebruik je op dit moment?'),
    proofUnknown: (company) => `Ik stuur ${u} graag een korte case van een team dat vergelijkbaar is met ${company ?? v('het uwe', 'het jouwe')}.`,
    caseStudy: `Ik stuur ${u} ook graag een korte case.`,
    showOnScreen: `Het makkelijkst laat ik het ${u} even op het scherm zien — dat duurt zo'n 15 minuten.`,
    check: `Goede vraag — ik zoek het uit en kom er snel bij ${v('u', 'je')} op terug.`,
    softCta: (company, l) => `Ik laat ${u} graag in een kort gesprek zien hoe dat er voor ${company ?? v('u', 'jou')} uit zou zien — komt ${l} ${yourTime} ${u} uit?`,
    noCallCta: v('Heeft u nog vragen, reageer dan gewoon op dit bericht.', 'Heb je nog vragen, reageer dan gewoon op dit bericht.'),
    shortVersion: 'Graag — hier de korte versie.',
    overviewToday: `Graag — ik stuur ${u} vandaag nog een kort overzicht.`,
    infoCta: (company) => `Als het interessant lijkt voor ${company ?? v('u', 'jou')}, licht ik het graag toe in een gesprek van 15 minuten — reageer anders gewoon hier met vragen.`,
    laterAck: `Helemaal begrijpelijk — bedankt dat ${u} het laat weten.`,
    laterPlan: (date, monthStart, month) => (monthStart ? `Ik neem begin ${month} weer contact met ${u} op.` : `Ik neem op ${date} weer contact met ${u} op.`),
    laterChange: 'Als er eerder iets verandert, reageer dan gewoon op dit bericht.',
    internalAck: `Dat is logisch — bedankt dat ${u} ernaar kijkt.`,
    internalPlan: (date) => `Ik neem op ${date} nog even contact op, tenzij ik eerder iets van ${v('u', 'je')} hoor.`,
    referralThanks: 'Bedankt voor de doorverwijzing.',
    referralAsk: (name) =>
      name
        ? `Zou ${u} mij aan ${name} willen voorstellen? Of, als dat makkelijker is, het e-mailadres willen delen — dan neem ik direct contact op en vermeld ik dat het via ${v('u', 'jou')} komt.`
        : 'Wie zou de juiste persoon zijn om hierover te spreken? Dan neem ik daar direct contact mee op.',
    referralContact: (name, email) => `Ik neem contact op met ${name} via ${email} en vermeld dat het via ${v('u', 'jou')} komt.`,
    whoSource: (medium, phone) => `Terechte vraag — ${medium === 'linkedin' ? `ik kwam ${v('uw', 'je')} profiel hier op LinkedIn tegen` : `${v('uw', 'je')} ${phone ? 'nummer' : 'zakelijke e-mailadres'} komt uit openbaar beschikbare zakelijke contactgegevens`}.`,
    whoReason: (company) => `Ik nam contact op omdat ${company ?? v('uw bedrijf', 'je bedrijf')} goed aansluit bij wat wij doen.`,
    whoOptOut: (final) => (final ? `Ik neem geen contact meer met ${u} op.` : 'Als het niet relevant is, laat het me weten, dan neem ik geen contact meer op.'),
    ooo: (day, month) => `Bedankt voor het bericht — ik neem weer contact op als ${u} terug bent${day ? `, op ${day}` : month ? `, in ${month}` : ''}.`,
    noThanks: v('Bedankt voor uw reactie, dat waardeer ik.', 'Bedankt voor je reactie, dat waardeer ik.'),
    covered: v('Dan bent u al goed voorzien.', 'Dan ben je al goed voorzien.'),
    noFollowUp: 'Ik kom er niet meer op terug.',
    wish: 'Veel succes',
    unsubscribe: v('Begrepen — ik heb u van onze lijst gehaald; u hoort niets meer van ons.', 'Begrepen — ik heb je van onze lijst gehaald; je hoort niets meer van ons.'),
    apology: 'Excuses voor het storen.',
    unclearAsk: v('Heeft u iets aan een kort gesprek, of ontvangt u liever een kort overzicht per mail?', 'Heb je iets aan een kort gesprek, of ontvang je liever een kort overzicht per mail?'),
    resourceSoon: `Graag — ik stuur het ${u} zo snel mogelijk.`,
    inShort: (h) => `In het kort: ${h}`,
  };
}
