import type { Classification } from './types';

// Weighted phrase signals. Patterns run on normalised text: lower-cased,
// diacritics stripped ("büro" → "buro", "écrit" → "ecrit"), curly quotes
// straightened. Write patterns without accents so typed-without-accent replies
// match too.
//
// `neg: true` means a negator shortly before the match in the same clause
// cancels it ("don't need a call", "no me interesa"). Only positive-intent
// signals use it; the not_interested signals already encode negation.

export interface Signal {
  name: string;
  label: Classification;
  w: number;
  re: RegExp;
  neg?: boolean;
  /** Counts only when no other hot/warm signal fired: a tie-breaker, not evidence. */
  weak?: boolean;
}

const WEEKDAY =
  '(?:mon|tue|tues|wed|thu|thur|thurs|fri|monday|tuesday|wednesday|thursday|friday|montag|dienstag|mittwoch|donnerstag|freitag|lundi|mardi|mercredi|jeudi|vendredi|maandag|dinsdag|woensdag|donderdag|vrijdag|lunes|martes|miercoles|jueves|viernes)';
const MEET = '(?:call|chat|meeting|meet|demo|zoom|teams call|talk|conversation|walkthrough|intro call|intro)';

/** Opt-out requests win over everything else ("unsubscribe anywhere wins"). */
export const OPT_OUT: RegExp[] = [
  /\bunsubscrib/,
  /\bunsub\b/,
  /\bremove (me|us|my (e-?mail|address)|[^\s@]+@[^\s@]+)\b.{0,40}\b(from|off)\b/,
  /\bremove (me|my (details|data|info|information|contact details))\b/,
  /^remove[.!]*$/,
  /\bstreichen sie (mich|meine)\b/,
  /\btake (me|us|my (e-?mail|address)) off\b/,
  /\bopt(-| )?out\b/,
  /\bstop (e-?mailing|contacting|spamming|messaging|writing to|sending (me|us)) (me|us)?/,
  /\bdo not (contact|e-?mail|write to) (me|us)\b/,
  /\b(aus (ihrem|dem|ihrer) (verteiler|liste|mailingliste)|abmelden|austragen)\b/,
  /\b(desinscri|desabonn|me retirer de|retirez-moi)/,
  /\b(uitschrijven|afmelden|verwijder (me|mij))\b/,
  /\b(darme de baja|dar(me)? de baja|no (me|nos) (escriban|escribas|contacten))\b/,
  // "Stop writing to me" in the other languages, and a closing "Stop." after a complaint.
  /\b(dadme|dame|denme|darnos|dadnos) de baja\b|\bdej(a|ad|en|e) de (escribir|enviar|mandar|contactar)(me|nos)\b/,
  /\barretez de (m'|nous )?(ecrire|envoyer|contacter|relancer)|\bhoren sie (bitte )?auf,? (mir|uns) zu (schreiben|mailen)|\bstop met (mij |ons )?(te )?(e-?)?mailen\b/,
  /(^|[.!?] )stop[.!]*$/,
];

/**
 * Sentences that auto-replies use to route urgent matters to colleagues. They
 * mention calls and meetings without expressing intent, so they are dropped
 * before scoring whenever the text already looks like an absence notice.
 */
export const ABSENCE_REFERRAL =
  /\b(urgent|urgently|urgence|dringend|dringende[nr]?|urgentes?|immediate assistance|in my absence|in meiner abwesenheit|en mon absence|tijdens mijn afwezigheid|en mi ausencia|for (sales|support|general) enquiries|for (sales|support|general) inquiries)\b/;

const T = String.raw;
const re = (src: string) => new RegExp(src);

// Clock times in the five languages: "3pm", "10:00", "14 Uhr", "11h", "a las 16:00", "om 10".
const CLOCK = T`(\b\d{1,2}(:\d\d)?\s?(am|pm)\b|\b\d{1,2}:\d\d\b|\b\d{1,2} ?uhr\b|\b\d{1,2}h(\d\d)?\b|\ba las \d|\bom \d|\bum \d)`;
const DAYISH = T`(${WEEKDAY}|tomorrow|today|morgen|demain|manana|next week|this week|nachste woche|la semaine prochaine|volgende week|la semana que viene|la proxima semana)`;

export const SIGNALS: Signal[] = [
  // ---------------- hot: a concrete next step or buying question ----------------
  { name: 'hot.lets_meet', label: 'hot', w: 3, neg: true, re: re(T`\b(let'?s|lets|can we|could we|shall we|happy to|glad to|love to|keen to|open to|up for|(?<!you'?d |you |you'?ll )(like to|want to|would like to)) (a |an |quick |short |hop on a |jump on a |get on a |set up a |book a |schedule a |have a )*(talk|chat|speak|call|meet|connect|catch up|hop on|jump on|${MEET})\b`) },
  { name: 'hot.on_a_call', label: 'hot', w: 2.5, neg: true, re: re(T`\b(on|take|do|have|book|schedule|arrange|set up|setup|find|grab|put|are you around for|around) (a |an |the |that |this |some |quick |short |\d+[- ]?(min|mins|minute|minutes) )*(time|slot|${MEET}|\d+[- ]?(min|mins|minutes))\b`) },
  { name: 'hot.call_me', label: 'hot', w: 3, neg: true, re: /\b(call|ring|phone) me\b|\bgive me a (call|ring)\b|\bcan we (talk|speak)\b|\bwhat'?s your (number|phone)\b|\bwhen can you (show|walk|demo)\b|\bshow me\b|\b(could|can) you and i (connect|talk|chat|meet)\b/ },
  { name: 'hot.calendar', label: 'hot', w: 3, neg: true, re: /\b(calendar (link|invite)|calendly|meeting invite|send (me |us |over )?(an |a )?(calendar |meeting |teams |zoom )?(invite|invitation)|(booked|picked|grabbed) a (slot|time)|in (my|the) (calendar|diary)|my (assistant|ea|pa)\b|manages my (calendar|diary)|einladung|invitation|uitnodiging|invitacion)\b/ },
  { name: 'hot.availability', label: 'hot', w: 3, neg: true, re: /\b(what'?s|what is|share) your availability|\bsend (over )?(a few|some|a couple of) times\b|\bwhen are you (free|available)\b|\btimes that work\b|\bi'?m flexible\b|\b(disponibilidad|disponibilites|verfugbarkeit|beschikbaarheid)\b|\bwann passt es\b|\bare you (around|free|available)\b|\bi'?m (around|free|available) (all day|on|this|next|tomorrow|today|mon|tue|wed|thu|fri)/ },
  { name: 'hot.slot', label: 'hot', w: 2.5, neg: true, re: re(T`\b${DAYISH}\b[^.?!\n]{0,30}(${CLOCK}|\bat \d{1,2}\b|\bmorning\b|\bafternoon\b|\bafter (lunch|\d)|\bfor \d+ ?min)|\b${WEEKDAY} works\b|\bworks for me\b|\b(does|would) ${DAYISH}[^.?!\n]{0,20} work|\b(i'?m|i am) (free|open|available) (on )?${DAYISH}|\b(vous convient|te va bien|schikt (het|dat|mij|me)|passt (es )?(ihnen|dir|mir)(?! nicht))\b`) },
  { name: 'hot.time', label: 'hot', w: 1.5, neg: true, re: re(CLOCK) },
  { name: 'hot.free_slot', label: 'hot', w: 2.5, neg: true, re: /\b\d+ ?(min|mins|minutes) (free|open)\b|\b(free|open|available) on the \d|\b(does|would|will) (that|this|it) work for you\b|\bwork for you\?|\b(if|does|would|will) (that|this|it) suits?( you)?\b|\bworth a (conversation|chat|call)\b|\bwhen (do|would|will) you have time\b|\bwann haben sie zeit\b|\bwanneer kan (het|je|u)\b|\bon peut en (discuter|parler)\b/ },
  { name: 'hot.call_me_xx', label: 'hot', w: 3, neg: true, re: /\b(appelez-moi|appelle-moi|llamame|llameme|bel me|bel mij|rufen sie mich|ruf mich)\b|\b(ca|cela) m'interesse\b/ },
  { name: 'hot.go_ahead', label: 'hot', w: 3, neg: true, re: /\b(loslegen|bin dabei|sind dabei|wie geht es (jetzt )?weiter|comment (on )?procede|(que|lo que) necesita(is|n|s)? de (nuestra|mi) parte|van (ons|mij) nodig|laten we het proberen|(graag|willen) (starten|beginnen)|still (keen|on for)|toujours partant|seguimos queriendo|(zoom|teams|meet|meeting) link|confirmed for|(monthly|annual|yearly) (option|plan|billing|subscription)|testphase|(lancer|faire) un (test|essai|pilote)|periodo de prueba|proefperiode)\b/ },
  { name: 'hot.mention', label: 'hot', w: 1.5, neg: true, re: /\b(demo|pilot|trial|poc)\b/ },
  // Buying vocabulary: asking for prices or paperwork is a next step even without a question.
  { name: 'hot.buying_words', label: 'hot', w: 2.5, neg: true, re: /\b(pricing|prices|order form|(starter|basic|growth|pro|business|enterprise) plan for|contract(?! (length|term|terms|duration))|get (this|it) signed|angebot|offerte|devis|presupuesto|cotizacion|propuesta (economica|comercial)|tarifs?|licen[cs]es|lizenzen)\b/ },
  { name: 'hot.demo', label: 'hot', w: 3, neg: true, re: /\b(see|get|do|book|schedule|arrange|set up|need|want|like|love|for) (a |the |your |an )?(quick |short |live )?(demo|walkthrough)\b|\bdemo (would be|sounds) (great|good|helpful|useful)|\bdemo (for|with) (me|us|our)\b|\b(love|like) to see (how|it|this)\b|\binteresse an einer demo\b|\b(want|need) to see (it|this|how)\b|\btell me when and where\b/ },
  { name: 'hot.pricing', label: 'hot', w: 3.5, neg: true, re: /\b(what('?s| is| does| would| are)|how much)\b[^.?!\n]{0,40}\b(cost|price|pricing|charge|fee)|\bhow much\b(?! (time|effort|work|data|volume|of))|\bthe contract\b|\b(ballpark|rough|indicative) (cost|price|figure|number|quote|estimate)|\b(estimate|costing|quotation) for\b|\bcuanto (cuesta|costaria|cuestan|vale)\b|\bwas (kostet|wurde .{0,20} kosten)\b|\bcombien (coute|couterait|ca coute)\b|\bwat (kost|zou .{0,20} kosten)\b|\bput together (a |an )?(rough )?(estimate|quote|proposal)\b|\b(cost|price|pricing|rate) (for|per)\b|\b(quote|proposal|pricing|price list|pricing sheet|contract) for\b|\b(send|get|like|need|want|prepare) (me |us )?(a |the |your )?(quote|proposal|price list|pricing sheet|contract|offer|angebot|devis|offerte|presupuesto)\b/ },
  { name: 'hot.trial', label: 'hot', w: 3, neg: true, re: /\b(interested in|like to|want to|set up|start|run|do|try|trying|begin|next steps? for)( the| a| an| your)?( \d+[- ]day)?( free)? (trial|pilot|poc|proof of concept)\b|\b(trial|pilot) (sounds|would be) (worthwhile|great|good)|\bdo you (offer|have) a (free )?trial\b/ },
  { name: 'hot.next_step', label: 'hot', w: 2.5, neg: true, re: /\b(move forward|go ahead|get started|next steps?|onboard us|sign up|let'?s do it|i'?m in(?=[.!,]|$)|count me in|walk (me|us) through|you'?ve got my attention|get (that|this|it) set up|count (us|me) in|lock in a time|give it a (go|try|shot)|what do you need from (us|me)|quiero probarlo|prueba gratuita|(we'?ll|let'?s) get going|when can we (start|begin|kick off|get going)|(empezar|starten|commencer|beginnen|start) (this|este|ce|diesen|deze) (month|mes|mois|monat|maand)|(start|go live|kick off|begin|roll out) (in|by|from|before) (january|february|march|april|may|june|july|august|september|october|november|december|q[1-4]|next month|next week))\b/ },
  { name: 'hot.interested', label: 'hot', w: 2, neg: true, re: /\b(i'?m|i am|we'?re|we are|very|definitely|i'?d be|we'?d be) (interested|keen)\b|\bsounds good\b|\byes,? (let'?s|please|thursday|tuesday|monday|wednesday|friday)/ },
  // Cold emails end with a yes/no call-to-action, so a bare affirmative accepts it.
  { name: 'hot.yes', label: 'hot', w: 2, re: /^(yes|yep|yeah|sure|absolutely|definitely|of course|ja|oui|si(?=[,.!]|$)|gerne|graag|d'accord|volontiers|claro)\b/ },
  { name: 'hot.timing_good', label: 'hot', w: 1.5, re: /\b(timing is (actually )?(good|great|perfect|spot on)|good timing|on my list for this quarter|looking for something like this|speak today)\b/ },
  { name: 'hot.de', label: 'hot', w: 3, neg: true, re: /\b(telefonieren|telefonat|termin|gesprach vereinbaren|demo (ware|waere) (super|toll|gut|prima)|passt mir (gut|am besten)|(konnen|koennen) wir [^.?!]{0,30}(sprechen|telefonieren|treffen)|sind interessiert|bin interessiert)\b/ },
  { name: 'hot.fr', label: 'hot', w: 3, neg: true, re: /\b(rendez-vous|rdv|un appel|un echange|je suis interesse|nous sommes interesses|une demo|nous appeler|m'appeler)/ },
  { name: 'hot.nl', label: 'hot', w: 3, neg: true, re: /\b(afspraak|bellen|belletje|call inplannen|demo (inplannen|zien)|graag een demo|past mij (het beste|goed)|laten we [^.?!]{0,20}(bellen|afspreken|afspraak|call|demo|praten|spreken))\b/ },
  { name: 'hot.es', label: 'hot', w: 3, neg: true, re: /\b(me interesa(?! para (dentro|mas adelante|el (proximo|ano)))|demostracion|me gustaria ver|nos interesa|llamada|agendar|reunion|reunirnos|podemos (hablar|llamar|reunirnos|hacer)|una demo|me encaja)\b/ },

  // Additions to a booked meeting (invite a colleague, send the agenda, move the slot) are logistics of a next step
  // already agreed: hot. Weighted above the referral signals, which also name colleagues ("meinen Kollegen").
  { name: 'hot.meeting_addition', label: 'hot', w: 4.5, neg: true, re: /\b(invite|add|include|loop in|bring) (also |too )?(my |our |a )?(colleague|coworker|co-worker|boss|manager|cto|ceo|cfo|head of \w+|team ?mate|partner|co-?founder|\w+ from (my|our) team)\b|\badd (him|her|them|\w+) to the (invite|invitation|meeting|call|calendar)|\b(agenda|talking points) (for|ahead of|before) (the|our|tomorrow'?s|next week'?s) |\b(send|share) (me |us )?(the |an |a short )?agenda\b|\b(move|push|reschedule|shift|bring forward|postpone) (the |our |tomorrow'?s |this )?(call|meeting|demo|slot|appointment|chat)\b|\breschedul\w*|\b(kollegen|kollegin|chef|chefin|geschaftsfuhrer|team) [^.?!\n]{0,30}(einladen|dazuholen|dazunehmen|hinzufugen)|\b(tagesordnung|agenda) [^.?!\n]{0,20}(schicken|senden|vorab)|\b(termin|call|gesprach|meeting|treffen) [^.?!\n]{0,25}(verschieben|verlegen)|\b(inviter|ajouter|convier) [^.?!\n]{0,20}(collegue|associe|associee|responsable|directeur|directrice|equipe)|\bordre du jour\b|\b(decaler|reporter|deplacer) (le |notre |l')?(rendez-vous|rdv|appel|reunion|call)|\b(collega|baas|manager|teamgenoot|directeur) [^.?!\n]{0,30}(uitnodigen|toevoegen)|\b(afspraak|call|meeting|gesprek|demo) [^.?!\n]{0,25}(verzetten|verplaatsen|verschuiven|later doen|eerder doen)|\b(invitar|agregar|anadir|incluir) [^.?!\n]{0,20}(companero|companera|jefe|jefa|socio|socia|director|directora|equipo)|\borden del dia\b|\b(mover|cambiar|reprogramar|aplazar) (la |nuestra |el )?(llamada|reunion|cita|demo)/ },

  // ---------------- warm: curious or positive, but no commitment ----------------
  { name: 'warm.more_info', label: 'warm', w: 2.5, neg: true, re: /\b(send|share|forward|email) (me |us |over )*([\w-]+ ){0,3}(info|information|details|material|materials|deck|one-pager|overview|case stud|examples?|brochure|video|something|summary|pdf)|\btell me more\b|\bmore (info|information|details)\b|\bhave it on file\b|\banything written up\b|\bby e-?mail first\b/ },
  { name: 'warm.question', label: 'warm', w: 2, neg: true, re: /\b(integrat\w*|gdpr|compliant|compliance|security|case stud\w*|references?|results|roi|set ?up (usually )?take|how long|who else|different from|difference between|compare|minimum|what'?s the catch|version for|how do you|how does (it|this|that)|scraped|work with|channels|contract length|customers|clients|features?|onboarding|besides)\b/ },
  // Any question the prospect asks is engagement; cold-specific questions outweigh it below.
  { name: 'warm.asks', label: 'warm', w: 1.2, weak: true, re: /\?/ },
  { name: 'warm.later', label: 'warm', w: 2.5, neg: true, re: /\b(next|later (this|in the)|in a few|in \w+|after the|until|in the|this|the new) (quarter|year|month|months|weeks|summer|spring|autumn|fall|winter|q[1-4])\b|\b(in|until|after|around) (january|february|march|april|may|june|july|august|september|october|november|december|q[1-4])\b|\b(until|next|in) (fy|financial year)\s?\d*\b|\b(after|despues del|nach dem|apres l'|na de) ?(summer|verano|sommer|ete|zomer)\b|\b(circle back|follow up in|check (back|in)|ping me|nudge me|(stay|keep) in contact|op de hoogte|try me|ask me again|reconnect|touch base|keep in touch|stay in touch|keep me posted|keep (this|you|it) in mind|bookmark\w*|down the (line|road)|at some point|in the future|reach out (then|again|next|later|in))\b/ },
  { name: 'warm.not_now', label: 'warm', w: 2.5, re: /\bnot (right )?now\b|\bnot at the moment\b|\bnot (a priority|the right time|ready yet|yet)\b|\bnot something we'?re prioriti[sz]ing\b|\bother priorities\b|\btiming isn'?t\b|\bbudget is frozen\b|\bmaybe later\b|\bfor now\b|\bjust swamped\b|\bstill interested\b|\bin principle\b|\bcan'?t commit\b|\bon (our|my) radar\b|\b(gardons|restons) (le )?contact\b|\bin contact blijven\b|\bstill thinking\b|\bgive me (a couple of|a few|two|some) (days|weeks|months)\b|\bwill let you know\b|\bpassing (it|this) (around|on)\b|\bseguimos en contacto\b|\bin kontakt bleiben\b|\bthink (about it|it over)\b|\b(we'?ll|i'?ll) let you know\b|\bshared this with\b|\bflag (this|it) to\b|\b(can|could)(n'?t| not)? look at (this |it )?now\b|\bsaved your (details|email|info|number)\b|\bfor later\b|\bdentro de unos meses\b|\bno promises\b|\bover na te denken\b|\bniet voor nu\b|\b(lo )?tendre en cuenta\b|\bel ano que viene\b|\bnot (for|until) (this|next) year\b|\brevisit\b|\bnot quite there\b|\b(won'?t|don'?t) have (the )?budget\b|\bahora no\b|\bnu even niet\b|\bim moment nicht\b|\b(right now|at the moment|currently),? but\b/ },
  { name: 'warm.maybe', label: 'warm', w: 1.5, re: /\b(might|may|could) (be )?(interest|relevant|useful|look at)|\b(possibly|maybe|perhaps|quizas?|vielleicht|peut-etre|misschien|depends on)\b|\bcould be (relevant|interesting|useful)/ },
  { name: 'warm.positive', label: 'warm', w: 1, neg: true, re: /\b(interesting|intrigued|curious|looks (interesting|good)|nice pitch|like the idea|heard good things|open to hearing|promising|good question|neat|cool|not a bad idea|saving this|read through)\b/ },
  { name: 'warm.team', label: 'warm', w: 2, neg: true, re: /\b(discuss (it |this )?with (the|my) team|run it by|get back to you|come back to you|(passing|pass) this (on )?to my team|saved your email)\b/ },
  { name: 'warm.de', label: 'warm', w: 2.5, re: /\b(melden sie sich|(schicken|senden) sie (mir )?(gern|gerne)?\s?(vorab )?(ein paar |weitere |mehr )?infos|mehr informationen|im (herbst|fruhjahr|sommer|winter|nachsten jahr|nachsten quartal)|spater (im jahr|nochmal|noch einmal)|im moment|andere prioritaten|nochmal melden|(bespreche|besprechen) (das |es )?intern|intern (besprechen|abstimmen)|melde mich|nicht uninteressant)/ },
  { name: 'warm.fr', label: 'warm', w: 2.5, neg: true, re: /\b(plus d'informations|plus d'infos|m'envoyer (de la |des )?(documentation|informations|infos)|recontact\w*|pas pour le moment|pas le bon moment|plus tard|en parler a|reviens vers vous|(fais|faire|ferai) circuler|l'annee prochaine|pourquoi pas|en (janvier|fevrier|mars|avril|mai|juin|juillet|aout|septembre|octobre|novembre|decembre))/ },
  { name: 'warm.nl', label: 'warm', w: 2.5, neg: true, re: /\b(meer informatie|wat (meer )?info|volgende (maand|kwartaal|jaar)|later dit jaar|voorbeelden|leuk idee|intern bespreken|kom (erop|er op|hierop|daarop) terug|bij het mt)\b/ },
  { name: 'warm.es', label: 'warm', w: 2.5, re: /\b(mas informacion|no es (un )?buen momento|escribeme de nuevo|en unos meses|mas adelante|el proximo (trimestre|ano)|casos de exito|suena interesante|lo comento con|te (digo|comento) algo|lo reviso)/ },
  { name: 'warm.send_info_xx', label: 'warm', w: 2.5, neg: true, re: /\b(envoyez-moi|m'envoyer|schicken sie mir|senden sie mir|stuur me|stuur mij|stuur maar|enviame|envieme|mandame)\b[^.?!]{0,30}\b(info\w*|brochure|plaquette|documentation|unterlagen|broschure|folleto|documentatie|presentatie|presentation|presentacion|deck|details)\b/ },
  { name: 'warm.interesting', label: 'warm', w: 1, re: /\b(interessant\w*|spannend|interesante)\b/ },
  { name: 'warm.info_xx', label: 'warm', w: 2, neg: true, re: /\b(informacion|informationen|informations|informatie|unterlagen|documentation|referenzen|references)\b/ },

  // ---------------- cold: unclear, wrong person, who-are-you ----------------
  { name: 'cold.who', label: 'cold', w: 3, re: /\bwho (are you|is this|gave you|is sending)\b|\bwho is (?!your)[^?]{1,30}\?|\bich kenne ihre firma nicht\b|\bwoher (kommt|haben)\b|\bhow('?d| did| do) you (get|have|find) (my|this|me)\b|\b(de que empresa|von welcher firma|de quelle (societe|entreprise)|van welk bedrijf)\b|\bby mistake\b|\bnot sure i follow\b|\b(don'?t|do not) (follow|understand)\b|\bqui vous a donne\b|\bqui etes-vous\b|\bwie (bent u|ben jij|is dit)\b|\bquien (eres|es usted)\b|\bwer sind sie\b|\b(mass|bulk) (e-?mail|mailing)\b|\bnot sure (this|it) applies\b|\bcan i help\b|\b(not|niet|nicht) (meant|intended|bedoeld|bestimmt) (for|voor|fur) (me|mij|mich)\b|\bniet voor mij bedoeld\b|\bnicht fur mich bestimmt\b|\bintended recipient\b|\bwhere is this (coming )?from\b|\b(nos conocemos|kennen wir uns|on se conna\w+|kennen we elkaar)\b|\bwhere did you get\b|\bdo i know you\b|\bwhich company\b|\bwhat is this (about|regarding)\b|\bremind me what\b|\bwhat you'?re referring to\b|\bdid we meet\b|\bmean to send this\b|\bwrong address\b|\bunsend\b|\bautomated e-?mail\b|^(sorry,? )?what'?s [\w.-]+\?/ },
  { name: 'cold.referral', label: 'cold', w: 3, re: /\b(wrong person|not the right (person|contact)|not my (area|department|call)|i don'?t (handle|deal with|manage|make)|not responsible|no longer (with|at|work|works)|moved on from|left (the company|\w+ in)|(talk|speak) to (her|him|them)|(talk|speak|reach out) (to|with) (our|my) |you should (talk|speak|contact)|you'?d want to (speak|talk)|you may want to contact|contact them directly|(contact|try|ask) (our|my|the) |cc'?d (her|him|them)|question for our|handles (this|that|procurement|vendor|it)|(he|she|they) handles|decides on|head office|parent company|supplier portal|purchasing department|procurement|an intern|just the|not sure who|you'?ll want someone|someone (in|from) (sales|marketing|ops|operations|procurement|it)|(send|forward) this to [^\s@]+@|retired|replacement|no longer in use|not monitored|try reaching out to|took over my role|forward(ed|ing) (this |it )?to|you mean my colleague|may know)\b/ },
  { name: 'cold.ack', label: 'cold', w: 2.5, re: /^(ok|okay|k|kk|thanks|thank you|thx|ty|received|noted|ok noted|got it|hi|hello|huh|what|danke|merci|gracias|bedankt|dank je|hallo|hola|bonjour|allo|hey|\?+|!+|\.+|hmm+)[.!?]*$/ },
  { name: 'cold.de', label: 'cold', w: 3, re: /\b(nicht zustandig|wenden sie sich (bitte )?an|nicht mehr (genutzt|im unternehmen|bei|hier)|falsche[rn]? (person|ansprechpartner)|woher haben sie|meinen kollegen|meine kollegin|leite (ihre|die) (mail|e-mail|nachricht) weiter|worum geht es)/ },
  { name: 'cold.fr', label: 'cold', w: 3, re: /\b(pas la bonne personne|pas le bon interlocuteur|merci de contacter|adressez-vous|comment avez-vous (eu|obtenu)|de quoi s'agit-il|pas compris|de quoi (parlez|parles)|mon collegue|ma collegue|pas moi qui|voyez avec)/ },
  { name: 'cold.nl', label: 'cold', w: 3, re: /\b(hoe kom (je|u) aan|niet de juiste persoon|neem contact op met|contact opnemen met|werk hier niet meer|waar gaat (dit|het) over|mijn collega|niet degene)/ },
  { name: 'cold.es', label: 'cold', w: 3, re: /\b(no soy la persona|le paso el correo|contacte con|como (consiguio|obtuvo|tiene) (mi|mis)|quien (le|te) ha dado|de que se trata|de donde (has|ha|habeis) sacado|ya no trabajo|mi companer)/ },

  // ---------------- not_interested: explicit no, hostility, already covered ----------------
  { name: 'ni.not_interested', label: 'not_interested', w: 3.5, re: /\bnot interested\b(?!,? (right now|at the moment|at this (time|stage|point)|currently|for now|just yet|yet|this (quarter|year|month)))/ },
  { name: 'ni.no_thanks', label: 'not_interested', w: 3.5, re: /\b(no,? thanks?( you)?|thanks,? but no( thanks)?|no thank you|hard pass|i'?ll pass|(going to|gonna|will|we'?ll|have to|must) pass|pass on this|lol no|nope|it'?s a no|a no from me)\b|^no(?=[.!,]|$)|^(we'?re|we are|i'?m|i am) (good|fine|ok|okay|all good)(,? thanks?( though| anyway)?)?[.!]*$/ },
  { name: 'ni.not_fit', label: 'not_interested', w: 3, re: /\b(not|isn'?t|aren'?t) (a (good )?fit|for us|relevant|something we need)\b|\b(we'?re|we are|i'?m|i am) not looking\b|\bno (need|budget|interest)\b|\bnot (interested )?(right now )?or in the future\b|\bnever will\b|\bnot going down that road\b|\bdidn'?t work for us\b|\bnot in the market\b|\b(won'?t|will not|not) be needing\b|\bno requirement\b|\b(pas pour nous|nicht fur uns|niet voor ons|no es para nosotros)\b|\bwaste (of )?(my )?time\b|\b(zero|no) need\b|\bnot (a |the )?(right |good )?fit\b|\bclose (our|my) file\b|\b(inutile de|ne pas) me relancer\b|\bnot ever\b|\b(don'?t|do not) want (to receive )?(these|your|any more|more) e-?mails\b|\be-?mails anymore\b|\b(fully )?covered (on|for) this\b|\bshove off\b|\bno (estamos|estoy) buscando\b|\bdecline\b|\bnot something we would consider\b|\bor any ?time\b|\b(won'?t|will not|not) be moving forward\b|\bnot something we'?d (ever )?use\b|\babsolutely not\b|\bniet nodig\b|\bnee hoor\b|\b(zero|no) interest\b|\bso,? no\b|\b(not going to|won'?t|will not|don'?t|do not) (buy|need (this|it|that)|use (this|it))\b|\bbuilt our own\b|\bexclusive (agreement|contract|partner)|^decline|\bbrauchen (wir )?(das|so etwas|sowas) nicht\b|\b(n'avons|n'ai) pas besoin\b|\bpas besoin\b|\b(hebben|heb) (dit|dat|het) niet nodig\b|\bno (necesitamos|necesito)\b|\binteresse pas\b|\bdon'?t (need|want) (a|any|the|this)\b(?![^.,;!?]{0,25}\b(right now|at the moment|for now|yet|currently)\b)/ },
  { name: 'ni.have_solution', label: 'not_interested', w: 2.5, re: /\b(already (have|use|using|work with|got|in place)|(internal|in-house|our own) team (that )?(handles|does|covers)|have (this|that|it) covered|happy with (our|the) (current|existing)|all set|decided to go with|go(ing)? with another|locked in|in-house|no plans to (switch|change)|deja (un|une|des)|bereits (einen|eine|ein)|schon (einen|eine)|al geregeld|hebben (dit|dat) al|ya (tenemos|contamos)|(zufrieden|satisfaits?|tevreden|contentos|satisfechos) (mit|avec|met|con)|(mit|avec|met|con) (unserem|unserer|notre|onze|nuestro) (aktuellen |actuel |huidige |actual )?\w+ (sehr )?(zufrieden|satisfaits?|tevreden|contentos))\b/ },
  { name: 'ni.said_no', label: 'not_interested', w: 3.5, re: /\b(told you|said|dije que|gesagt|je vous l'ai (deja )?dit|zei)\b[^.!?\n]{0,25}\b(no|non|nein|nee)[.!]*$|\b(so|donc|also|dus|asi que),? (no|non|nein|nee)[.!]*$|\bc'est non\b|\b(das|so etwas|sowas) brauchen wir nicht\b|\b(wir lassen|lassen wir) (das|es)\b|\bpas donner suite\b|\bno vamos a (seguir|continuar)\b|\bniet (mee )?verder (te )?gaan\b|\b(signed|signer|firmado) (with|avec|con) (a |another |un |une )?(competitor|concurrent|competidor|other vendor)/ },
  { name: 'ni.stop', label: 'not_interested', w: 3.5, re: /\b(please stop|(please )?don'?t (contact|e-?mail|follow up|write)|do not (contact|follow up|e-?mail)|no (more|further) e-?mails|leave me alone|never (contact|e-?mail)|cease|stop sending)\b/ },
  { name: 'ni.hostile', label: 'not_interested', w: 3.5, re: /\b(f\*+|fuck\w*|f off|piss off|get lost|go away|spam\w*|scam|reported|report you|blocked|how many times|harass\w*)/ },
  { name: 'ni.de', label: 'not_interested', w: 3.5, re: /\b(kein (interesse|bedarf)|keine weiteren (e-?mails|nachrichten)|nicht interessiert|bitte keine|nein,? danke)/ },
  { name: 'ni.fr', label: 'not_interested', w: 3.5, re: /\b(pas interesse|ne suis pas interesse|non,? merci|ne plus (me )?(contacter|ecrire))/ },
  { name: 'ni.nl', label: 'not_interested', w: 3.5, re: /\b(geen interesse|niet geinteresseerd|geen behoefte|nee,? (bedankt|dank je|dank u)|geen (e-?)?mails meer)\b/ },
  { name: 'ni.es', label: 'not_interested', w: 3.5, re: /\b(no (me|nos) interesa|no estamos interesad|no,? gracias|ya tenemos (un )?proveedor|estamos contentos)/ },

  // ---------------- ooo: absence notices / auto-replies ----------------
  { name: 'ooo.auto', label: 'ooo', w: 3, re: /\b(automatic reply|auto-?reply|automated (response|reply)|this is an automated|automatische antwort|reponse automatique|automatisch antwoord|respuesta automatica)\b/ },
  { name: 'ooo.away', label: 'ooo', w: 4, re: /\b(out of (the )?office|ooo|away from (my desk|the office)|on (annual |parental |maternity |paternity |sick |medical |study )?leave|(currently |i'?m |i am )(on )?(vacation|holiday|holidays|sabbatical|pto)|on (vacation|holiday|holidays|sabbatical|pto)|out sick|off sick|parental leave|maternity leave|paternity leave|business travel|travell?ing for business|attending a conference|at a (trade show|conference)|at (our|the) (company )?(offsite|off-site|retreat)|offices? (is|are) closed|when we reopen|(i'?m|i am|i will be) (currently )?(out|away|off|unavailable)( of office)? (until|till|today|tomorrow|this week|all week)|career break|jury duty|slow to respond|on a flight|(expect|there may be) delays in (my )?(reply|response)|travell?ing with limited|auto-?response|part-time \(|next working day|currently unavailable|i'?m off until|away until|i'?m away|until further notice)\b/ },
  { name: 'ooo.limited', label: 'ooo', w: 2, re: /\b(limited (access|connectivity|e-?mail)|no longer checking this inbox|not checking this inbox|no (e-?mail )?access( to (my )?e-?mail)?|not (be )?checking (my )?e-?mails?|limited (wifi|internet|signal|reception)|not monitoring my inbox|(intermittent|sporadic)\w* (access|checking)|checking e-?mail (sporadically|intermittently)|responses will be delayed|will not be forwarded|read upon my return)\b/ },
  { name: 'ooo.return', label: 'ooo', w: 2, re: /\b(upon my return|on my return|when (i|we) (return|am back|get back)|when i'?m back|when we'?re back|will be back (on|in)|back in the office|back on|will return on|returning (on )?(monday|tuesday|wednesday|thursday|friday|\d)|return (on|until)|not return until|back (monday|tuesday|wednesday|thursday|friday|next week))\b/ },
  { name: 'ooo.de', label: 'ooo', w: 4, re: /(\bnicht im (buro|haus|office)|wieder fur sie da|abwesen\w*|urlaub|elternzeit|dienstreise|mutterschutz|krankgeschrieben|krank|au(ss|ß)er haus|wieder (im buro|im haus|erreichbar|da)|keinen zugriff auf (meine )?e-?mails|wird nicht weitergeleitet|nicht erreichbar|mails werden nicht gelesen|nach meiner ruckkehr)/ },
  { name: 'ooo.fr', label: 'ooo', w: 4, re: /\b(absente?s? (du bureau|jusqu)|je suis absente?|en conges?|en formation|en vacances|en deplacement|hors du bureau|acces limite|des mon retour|a mon retour|de retour le|conge (maternite|paternite|parental|maladie)|arret maladie|ne sera pas transfere)/ },
  { name: 'ooo.nl', label: 'ooo', w: 4, re: /\b(afwezig|niet op kantoor|met vakantie|op vakantie|verlof|zwangerschapsverlof|ziek|weer (bereikbaar|aanwezig|op kantoor|terug)|beperkt toegang|niet aanwezig|na mijn terugkomst|niet doorgestuurd|ben terug op|lees ik mijn (e-?)?mail niet)\b/ },
  { name: 'ooo.es', label: 'ooo', w: 4, re: /\b(fuera de la oficina|de vacaciones|ausente|baja (medica|maternal|por maternidad|paternidad)|acceso limitado|a mi (regreso|vuelta)|volvere|de viaje|de permiso)/ },
];

/** Subject lines that auto-responders set. */
export const OOO_SUBJECT =
  /\b(automatic reply|auto(matic)?[- ]?reply|autoreply|out of (the )?office|ooo|abwesenheitsnotiz|abwesend|automatische antwort|reponse automatique|absence|automatisch antwoord|afwezig|respuesta automatica|fuera de la oficina)\b/;

/** Negators that cancel a following positive signal in the same clause (ended by punctuation or a spaced dash). */
export const NEGATOR =
  /\b(not|no|don'?t|dont|do not|doesn'?t|never|without|nicht|kein\w*|pas|ne|geen|niet|nunca|ni)\b(?:(?! - )[^.,;:!?\n])*$/;

/** Fixed expressions that contain a negator but are not negations of what follows. */
export const NOT_NEGATION = /\b(no (problem|worries|rush|doubt)|not sure why|not only|kein problem|pas de (probleme|souci)|geen probleem|no hay problema)\b/g;

/** Valedictions that start a signature block when no "-- " delimiter was used. */
export const VALEDICTION =
  /^(best|best regards|kind regards|warm regards|regards|cheers|many thanks|viele grusse|beste grusse|mit freundlichen grussen|gruß|gruss|mfg|lg|cordialement|bien cordialement|bien a vous|met vriendelijke groet|groet(en)?|saludos|un saludo|atentamente)[,.!]?$/;
