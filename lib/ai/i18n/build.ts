// Drafts in German, French, Spanish and Dutch: the same strategies as the English templates (same strategy
// names, same rules: answer first, one next step, no pushback on a "no"), worded by the language's phrasebook.
// Campaign sentences are quoted only when the brief is in the draft's language; otherwise only the facts that
// are data (price, tools, customer names) are stated, and anything else is "let me check".

import { headline, type CampaignFacts } from '../context';
import { slotsFor } from '../cta';
import { formatDay, formatMonth, formatTime, joinOr, type Slot } from '../dates';
import type { Part } from '../draft';
import type { QuestionKind } from '../intent';
import type { Build, Built } from '../templates';
import { fold } from '../when';
import type { Phrases } from './phrases';

const DURATION = /\b(\d+|zwei|drei|vier|deux|trois|quatre|dos|tres|cuatro|twee|drie|vier)\s*(tage|tagen|wochen|monate|monaten|jours|semaines|mois|dias|semanas|meses|dagen|weken|maanden|days|weeks|months)\b/;
const STOP = new Set('the and you your what how does can with for are is der die das und sie ihr wie was ist mit fur le la les des et vous est que qui avec pour el los las que como con para por del de het een wat hoe met voor van en ik je u wij we'.split(' '));

function words(s: string): Set<string> {
  return new Set((fold(s).match(/[\p{L}\d]+/gu) ?? []).filter((w) => w.length > 3 && !STOP.has(w)).map((w) => w.slice(0, 6)));
}

/** The brief's sentence that shares the most words with the question (same language only). */
function bestSentence(question: string, facts: CampaignFacts): string | null {
  const q = words(question);
  let best: string | null = null;
  let score = 0;
  for (const s of facts.sentences) {
    const n = [...words(s)].filter((w) => q.has(w)).length;
    if (n > score) [best, score] = [s, n];
  }
  return best;
}

function slotList(P: Phrases, slots: Slot[]): string {
  if (slots.length > 1 && slots.every((s) => s.day.getTime() === slots[0].day.getTime())) return P.sameDay(slots[0].day, slots.map((s) => formatTime(s.minutes)));
  return joinOr(slots.map((s) => P.slot(s)), P.lang);
}

/** A brief's sentence continued after a colon: lower case in French, Spanish and Dutch, unless it starts with a name. */
function afterColon(s: string, b: Build, P: Phrases): string {
  const word = s.split(/\s/)[0].replace(/[^\p{L}\d]/gu, '');
  const names = [...b.facts.clients, ...b.facts.tools, b.company ?? ''];
  return P.lang === 'de' || names.includes(word) || /^\p{Lu}{2}/u.test(word) ? s : s[0].toLowerCase() + s.slice(1);
}

const ack = (b: Build, text: string, para = 0): Part => ({ text, para, prio: 1, optional: b.medium === 'whatsapp' || b.tone === 'direct' });

function ask(b: Build, P: Phrases, para: number): Part[] {
  const parts: Part[] = [{ text: P.askSlots(slotList(P, slotsFor(b))), para, prio: 5, cta: true }, { text: P.invite, para, prio: 3 }];
  if (b.medium === 'email' && b.tone !== 'direct') parts.push({ text: P.fallback, para, prio: 1, optional: true });
  return parts;
}

function softCta(b: Build, P: Phrases, para: number): Part[] {
  if (b.intent.noCall) return [{ text: P.noCallCta, para, prio: 5, cta: true }];
  return [{ text: P.softCta(b.company, slotList(P, slotsFor({ ...b, medium: 'linkedin' }))), para, prio: 5, cta: true }];
}

function answer(kind: QuestionKind, b: Build, P: Phrases): Part[] {
  const f = b.facts;
  const own = f.lang === P.lang;
  const quote = (s: string, prio = 4): Part => ({ text: s, para: 1, prio });
  const hedge = (text: string): Part => ({ text, para: 1, prio: 4, hedge: true });
  switch (kind) {
    case 'pricing':
      if (f.price) return [quote(P.price(f.price, f.noContract))];
      if (f.pricing[0]) return [quote(f.pricing[0])];
      return [hedge(P.priceUnknown(b.company)), ...(b.convo.known.teamSize ? [] : [{ text: P.askTeamSize, para: 1, prio: 3, optional: true }])];
    case 'integration': {
      const asked = b.intent.tools;
      const supported = asked.filter((t) => f.tools.includes(t));
      const missing = asked.filter((t) => !f.tools.includes(t));
      const parts: Part[] = [];
      if (supported.length) parts.push(quote(P.integrationYes(supported)));
      else if (f.tools.length) parts.push(quote(P.integrates(f.tools), 3));
      if (missing.length) parts.push(hedge(P.integrationCheck(missing)));
      else if (!f.tools.length) parts.push(hedge(P.integrationUnknown), { text: P.askTools, para: 1, prio: 3, optional: true });
      return parts;
    }
    case 'proof':
      if (f.clients.length) return [quote(P.clients(f.clients)), { text: P.caseStudy, para: 1, prio: 2, optional: true }];
      if (own && f.proof[0]) return [quote(f.proof[0])];
      return [hedge(P.proofUnknown(b.company))];
    case 'how_it_works': {
      const body = own ? [...new Set([...(f.offer ? [f.offer] : []), ...f.process])].slice(0, 2) : [];
      return body.length ? body.map((s, i) => ({ ...quote(s, 4 - i), optional: i > 0 })) : [hedge(P.showOnScreen)];
    }
    case 'differentiation': {
      const proof = f.clients.length ? P.clients(f.clients) : f.proof[0];
      if (own && f.offer) return [quote(f.offer), ...(proof ? [{ ...quote(proof, 3), optional: true }] : [])];
      return [hedge(P.check)];
    }
    case 'timeline': {
      // "How fast?" is only answered by a sentence that names a duration.
      const best = own ? f.sentences.find((s) => DURATION.test(fold(s))) : undefined;
      return best ? [quote(best)] : [hedge(P.check)];
    }
    default: {
      const best = own ? bestSentence(b.intent.questionText ?? b.reply, f) : null;
      return best ? [quote(best)] : [hedge(P.check)];
    }
  }
}

const STRATEGY: Record<QuestionKind, string> = {
  pricing: 'answer_pricing_question', how_it_works: 'answer_how_it_works', integration: 'answer_integration_question',
  proof: 'share_customer_proof', differentiation: 'answer_differentiation_question', timeline: 'answer_timeline_question', question: 'answer_question',
};

function meeting(b: Build, P: Phrases): Built {
  const open: Part = { text: b.intent.reschedule ? P.rescheduleOpen : b.intent.notBefore ? P.meetingOpenBack : P.meetingOpen, para: 0, prio: 2, optional: b.tone === 'direct' };
  const parts = [open, ...(b.intent.reschedule ? [] : [{ text: P.focus(b.company), para: 0, prio: 1, optional: true }])];
  return { parts: [...parts, ...ask(b, P, 1)], strategy: 'propose_meeting_times' };
}

export function buildLocal(b: Build, P: Phrases): Built {
  const f = b.facts;
  const own = f.lang === P.lang;
  const i = b.intent;
  switch (i.primary) {
    case 'confirm_time': {
      const p = i.proposed as Slot;
      return {
        parts: [{ text: P.confirm(P.slot(p)), para: 0, prio: 5, cta: true }, { text: P.focus(b.company), para: 0, prio: 1, optional: true }, { text: P.changes, para: 1, prio: 1, optional: true }],
        strategy: 'confirm_meeting_time',
      };
    }
    case 'meeting':
      return meeting(b, P);
    case 'positive':
      if (b.convo.offered?.kind === 'resource') return { parts: [{ text: P.resourceSoon, para: 0, prio: 4 }, ...softCta(b, P, 1)], strategy: 'follow_through_on_offer' };
      return meeting(b, P);
    case 'pricing': case 'how_it_works': case 'integration': case 'proof': case 'differentiation': case 'timeline': case 'question': {
      const kinds = i.questions.length ? i.questions.slice(0, 2) : (['question'] as QuestionKind[]);
      const parts: Part[] = [ack(b, P.thanks)];
      for (const k of kinds) parts.push(...answer(k, b, P));
      return { parts: [...parts, ...(i.wantsMeeting ? ask(b, P, 2) : softCta(b, P, 2))], strategy: STRATEGY[kinds[0]] };
    }
    case 'send_info': {
      const price = f.price ? P.price(f.price, f.noContract) : f.pricing[0];
      const summary = own ? [...new Set([f.offer, f.process[0]].filter((s): s is string => !!s))] : [];
      const parts: Part[] = summary.length
        ? [{ text: P.shortVersion, para: 0, prio: 2, optional: b.medium === 'whatsapp' }, ...summary.map((s, k) => ({ text: s, para: 0, prio: 4 - k, optional: k > 0 && b.medium !== 'email' }))]
        : [{ text: P.overviewToday, para: 0, prio: 4, hedge: true }];
      if (price) parts.push({ text: price, para: 0, prio: 2, optional: b.medium === 'whatsapp' && !i.noCall });
      parts.push({ text: i.noCall ? P.noCallCta : P.infoCta(b.company), para: 2, prio: 5, cta: true });
      return { parts, strategy: 'share_info_soft_cta' };
    }
    case 'later': {
      const l = i.later as { target: Date; monthStart: boolean };
      return {
        parts: [ack(b, P.laterAck), { text: P.laterPlan(formatDay(l.target, P.lang), l.monthStart, formatMonth(l.target.getUTCMonth(), P.lang)), para: 0, prio: 5, cta: true }, { text: P.laterChange, para: 1, prio: 1, optional: true }],
        strategy: 'schedule_later_follow_up',
      };
    }
    case 'internal_review':
      return { parts: [ack(b, P.internalAck), { text: P.internalPlan(formatDay((i.later as { target: Date }).target, P.lang)), para: 1, prio: 5, cta: true }], strategy: 'support_internal_review' };
    case 'referral': {
      const r = i.referral!;
      if (r.name && r.email) return { parts: [ack(b, P.referralThanks), { text: P.referralContact(r.name, r.email), para: 0, prio: 5, cta: true }], strategy: 'contact_referral' };
      return { parts: [ack(b, P.referralThanks), { text: P.referralAsk(r.name), para: 0, prio: 5, cta: true }], strategy: 'ask_for_referral_intro' };
    }
    case 'who_are_you': {
      const phone = b.medium === 'whatsapp' || /\b(nummer|numero|number|telefon)/.test(fold(b.reply));
      const reason = P.whoReason(b.company) + (own && f.offer ? ` ${f.offer}` : '');
      const final = b.classification === 'not_interested' || i.alreadyCovered;
      return { parts: [{ text: P.whoSource(b.medium, phone), para: 0, prio: 5 }, { text: reason, para: 0, prio: 4 }, { text: P.whoOptOut(final), para: 1, prio: 5, cta: true }], strategy: 'explain_outreach' };
    }
    case 'ooo':
      return { parts: [{ text: P.ooo(b.returnDate ? formatDay(b.returnDate, P.lang) : null, null), para: 0, prio: 5, cta: true }], strategy: 'acknowledge_ooo' };
    case 'not_interested':
      return {
        parts: [
          { text: P.noThanks, para: 0, prio: 5 },
          ...(i.alreadyCovered ? [{ text: P.covered, para: 0, prio: 2, optional: true }] : []),
          { text: P.noFollowUp, para: 0, prio: 4 },
          { text: P.wish, para: 1, prio: 1, optional: b.medium !== 'email', closing: true },
        ],
        strategy: 'polite_close',
      };
    case 'unsubscribe':
      return { parts: [{ text: P.unsubscribe, para: 0, prio: 5 }, { text: P.apology, para: 0, prio: 3 }], strategy: 'confirm_unsubscribe' };
    default: {
      const parts: Part[] = [ack(b, P.thanks)];
      if (own && f.offer) parts.push({ text: P.inShort(afterColon(headline(f.offer), b, P)), para: 0, prio: 3 });
      parts.push({ text: P.unclearAsk, para: 1, prio: 5, cta: true });
      return { parts, strategy: 'clarify_next_step' };
    }
  }
}
