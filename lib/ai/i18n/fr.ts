// French drafts. "vous" unless the prospect wrote "tu" (or the tone is casual). French typography: a space
// before "?" and ":".

import { AT, formatDay, formatSlot, joinAnd, joinOr } from '../dates';
import type { Register } from '../lang';
import type { Per } from '../price';
import { cap, type Phrases } from './phrases';

const PER: Record<Per, string> = { month: ' par mois', year: ' par an', user: ' par utilisateur', meeting: ' par rendez-vous', lead: ' par lead', hour: " de l'heure" };

export function fr(register: Register): Phrases {
  const f = register === 'formal';
  const v = (formal: string, informal: string) => (f ? formal : informal);
  const list = (xs: string[]) => joinAnd(xs, 'fr');
  const yourTime = v('(votre heure locale)', '(ton heure locale)');
  const vous = v('vous', 'te');
  return {
    lang: 'fr',
    register,
    greeting: (first, _tone, medium) => (first ? `Bonjour ${first}${medium === 'email' ? ',' : ' !'}` : `Bonjour${medium === 'email' ? ',' : ' !'}`),
    signOff: (tone) => (tone === 'formal' ? 'Bien cordialement,' : tone === 'casual' ? 'À bientôt,' : 'Cordialement,'),
    slot: (s) => formatSlot(s, 'fr'),
    sameDay: (day, times) => `${formatDay(day, 'fr')} ${AT.fr} ${joinOr(times, 'fr')}`,
    yourTime,
    price: (p, noContract) => `${p.from ? 'Nos tarifs démarrent à' : 'Le tarif est de'} ${p.amount}${p.per ? PER[p.per] : ''}${noContract ? ', sans engagement' : ''}.`,
    integrates: (tools) => `Nous nous intégrons avec ${list(tools)}.`,
    clients: (names) => `Nous travaillons notamment avec ${list(names)}.`,
    thanks: v('Merci pour votre retour.', 'Merci pour ton retour.'),
    meetingOpen: 'Avec plaisir — échangeons rapidement.',
    meetingOpenBack: v('Avec plaisir — échangeons à votre retour.', 'Avec plaisir — échangeons à ton retour.'),
    rescheduleOpen: "Pas de souci — voici d'autres créneaux.",
    focus: (company) => `L'échange durera 20 minutes et portera sur ce qui est pertinent pour ${company ?? v('vous', 'toi')}.`,
    askSlots: (l) => `${v('Seriez-vous', 'Serais-tu')} disponible ${l} ${yourTime} ?`,
    invite: v('Je vous envoie ensuite une invitation.', "Je t'envoie ensuite une invitation."),
    fallback: v('Si aucun de ces créneaux ne vous convient, proposez-moi simplement deux ou trois horaires.', 'Si aucun de ces créneaux ne te convient, propose-moi simplement deux ou trois horaires.'),
    confirm: (when) => `${cap(when)} ${yourTime} me convient très bien — ${v('je vous envoie', "je t'envoie")} une invitation dans la foulée.`,
    changes: v('Si quelque chose change, dites-le-moi simplement.', 'Si quelque chose change, dis-le-moi simplement.'),
    priceUnknown: (company) => `Le tarif dépend du périmètre : plutôt qu'une fourchette générique, je préfère ${vous} proposer un chiffre précis pour ${company ?? v('votre équipe', 'ton équipe')}.`,
    askTeamSize: v('Combien de personnes seraient concernées de votre côté, à peu près ?', 'Combien de personnes seraient concernées de ton côté, à peu près ?'),
    integrationYes: (tools) => `Oui — nous nous intégrons avec ${list(tools)}.`,
    integrationCheck: (tools) => `Je vérifie précisément comment cela fonctionne avec ${list(tools)} et je reviens vers ${v('vous', 'toi')}.`,
    integrationUnknown: `Je vérifie les détails de l'intégration avec notre équipe et je reviens vers ${v('vous', 'toi')}.`,
    askTools: v("Quels outils utilisez-vous aujourd'hui ?", "Quels outils utilises-tu aujourd'hui ?"),
    proofUnknown: (company) => `Avec plaisir — je ${vous} envoie une courte étude de cas d'une équipe comparable à ${company ?? v('la vôtre', 'la tienne')}.`,
    caseStudy: `Je peux aussi ${vous} envoyer une courte étude de cas.`,
    showOnScreen: `Le plus simple est de ${vous} le montrer à l'écran — cela prend environ 15 minutes.`,
    check: `Bonne question — je vérifie et je reviens vers ${v('vous', 'toi')} rapidement.`,
    softCta: (company, l) => `Je peux ${vous} montrer ce que cela donnerait pour ${company ?? v('vous', 'toi')} lors d'un court échange — ${v('seriez-vous', 'serais-tu')} disponible ${l} ${yourTime} ?`,
    noCallCta: v('Pour toute autre question, répondez simplement à ce message.', 'Pour toute autre question, réponds simplement à ce message.'),
    shortVersion: "Avec plaisir — voici l'essentiel.",
    overviewToday: `Avec plaisir — je ${vous} envoie un court récapitulatif aujourd'hui.`,
    infoCta: (company) => `Si cela semble pertinent pour ${company ?? v('vous', 'toi')}, je peux ${vous} présenter le tout en 15 minutes — sinon, ${v('répondez', 'réponds')} simplement ici pour toute question.`,
    laterAck: "Je comprends tout à fait — merci de me l'avoir dit.",
    laterPlan: (date, monthStart, month) => (monthStart ? `Je reviendrai vers ${v('vous', 'toi')} début ${month}.` : `Je reviendrai vers ${v('vous', 'toi')} le ${date}.`),
    laterChange: v("Si quelque chose change d'ici là, répondez simplement à ce message.", "Si quelque chose change d'ici là, réponds simplement à ce message."),
    internalAck: "Cela se comprend — merci d'y jeter un œil.",
    internalPlan: (date) => `Je reviendrai vers ${v('vous', 'toi')} le ${date}, sauf si j'ai de ${v('vos', 'tes')} nouvelles avant.`,
    referralThanks: "Merci pour l'indication.",
    referralAsk: (name) =>
      name
        ? v(`Pourriez-vous me mettre en relation avec ${name} ? Ou, si c'est plus simple, me transmettre son adresse e-mail — je prendrai contact directement en précisant que cela vient de vous.`, `Pourrais-tu me mettre en relation avec ${name} ? Ou, si c'est plus simple, me transmettre son adresse e-mail — je prendrai contact directement en précisant que cela vient de toi.`)
        : v("Pourriez-vous m'indiquer la bonne personne à contacter à ce sujet ?", "Pourrais-tu m'indiquer la bonne personne à contacter à ce sujet ?"),
    referralContact: (name, email) => `Je vais écrire à ${name} à l'adresse ${email} en précisant que cela vient de ${v('vous', 'toi')}.`,
    whoSource: (medium, phone) => `Question légitime — ${medium === 'linkedin' ? `j'ai vu ${v('votre', 'ton')} profil ici sur LinkedIn` : `${v('votre', 'ton')} ${phone ? 'numéro' : 'adresse e-mail professionnelle'} provient de coordonnées professionnelles publiquement accessibles`}.`,
    whoReason: (company) => `Je ${v('vous', 'te')} écris parce que ${company ?? v('votre entreprise', 'ton entreprise')} semble correspondre à ce que nous faisons.`,
    whoOptOut: (final) => (final ? `Je ne ${vous} recontacterai pas.` : v("Si ce n'est pas pertinent, dites-le-moi et je ne vous recontacterai pas.", "Si ce n'est pas pertinent, dis-le-moi et je ne te recontacterai pas.")),
    ooo: (day, month) => `Merci pour l'information — je reviendrai vers ${v('vous', 'toi')} à ${v('votre', 'ton')} retour${day ? `, le ${day}` : month ? `, en ${month}` : ''}.`,
    noThanks: v("Merci pour votre retour, je l'apprécie.", "Merci pour ton retour, je l'apprécie."),
    covered: v("Vous avez visiblement déjà ce qu'il faut.", "Tu as visiblement déjà ce qu'il faut."),
    noFollowUp: `Je ne ${vous} relancerai pas à ce sujet.`,
    wish: 'Bonne continuation',
    unsubscribe: v('Entendu — votre adresse a été retirée de notre liste ; vous ne recevrez plus de messages de notre part.', 'Entendu — ton adresse a été retirée de notre liste ; tu ne recevras plus de messages de notre part.'),
    apology: 'Toutes mes excuses pour le dérangement.',
    unclearAsk: v('Un court échange vous serait-il utile, ou préférez-vous un bref récapitulatif par e-mail ?', 'Un court échange te serait-il utile, ou préfères-tu un bref récapitulatif par e-mail ?'),
    resourceSoon: `Avec plaisir — je ${vous} envoie cela très vite.`,
    inShort: (h) => `En bref : ${h}`,
  };
}
