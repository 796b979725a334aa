// One builder per strategy. Each returns sentences (Parts), never final prose, so
// tone, length caps and learned edits are applied uniformly afterwards.
// Rule of thumb for wording: what an experienced SDR would send — answer first,
// one clear next step, no pushback on a "no".

import { clauseTrim, headline, type CampaignFacts, type Conversation } from './context';
import { meetingCta, softCta, topicFor, type CtaEnv } from './cta';
import { MONTHS, formatDay, formatSlot, type Slot } from './dates';
import { pick, type ByTone, type Part } from './draft';
import type { Intent } from './intent';
import { answerDifferentiation, answerIntegration, answerPricing, answerProof, answerHow, answerGeneric, lcSafe, summary } from './answers';
import type { Lang } from './lang';

export interface Build extends CtaEnv {
  /** The draft's language: English drafts are built here, the others by i18n/build.ts. */
  lang: Lang;
  first: string | null;
  company: string | null;
  facts: CampaignFacts;
  convo: Conversation;
  intent: Intent;
  returnDate: Date | null;
  classification: string;
  /** The lead's own text (quotes stripped). */
  reply: string;
}

export interface Built { parts: Part[]; strategy: string }

/** Drafts that promise to check rather than answer deserve less confidence. */
export const HEDGE_FACTOR = 0.75;

/** One sentence for linkedin/whatsapp: the first clause if it says enough, else a trimmed sentence. */
function shortLine(s: string): string {
  const h = headline(s);
  return h.length >= 40 ? h : `${clauseTrim(s, 150)}.`;
}

// Pleasantries: kept on email and LinkedIn, dropped for WhatsApp and the direct tone.
function ack(b: Build, v: ByTone): Part {
  return { text: pick(b.tone, v), para: 0, prio: 1, optional: b.medium === 'whatsapp' || b.tone === 'direct' };
}

function meetingNoun(convo: Conversation): string {
  return convo.offered?.kind === 'meeting' ? `the ${convo.offered.phrase} I mentioned` : 'a quick call';
}

function focusLine(b: Build): string {
  const what = b.company ? `what this would look like for ${b.company}` : "what's most relevant for you";
  return pick(b.tone, { neutral: `I'll keep it to 20 minutes and focus on ${what}.`, formal: `I will keep it to 20 minutes and focus on ${what}.` });
}

export function buildMeeting(b: Build): Built {
  const noun = meetingNoun(b.convo);
  const open: Part = {
    text: pick(b.tone, { neutral: `Thanks for getting back to me — happy to set up ${noun}.`, friendly: `Great to hear from you — I'd love to set up ${noun}!`, casual: `Great — let's set up ${noun}.`, formal: `Thank you for your reply; I would be glad to arrange ${noun.replace('quick', 'short')}.` }),
    short: pick(b.tone, { neutral: `Thanks — happy to set up ${noun}.`, casual: `Great, let's set up ${noun}.`, formal: `Thank you — I would be glad to arrange ${noun.replace('quick', 'short')}.` }),
    // Direct tone: skip the pleasantry, the times are the message.
    para: 0, prio: 2, optional: b.tone === 'direct',
  };
  if (b.intent.notBefore) {
    open.text = pick(b.tone, { neutral: "Thanks for getting back to me — happy to set up a quick call for when you're back.", formal: 'Thank you for your reply; I would be glad to arrange a short call for when you are back.' });
    open.short = pick(b.tone, { neutral: "Thanks — happy to set up a quick call for when you're back.", formal: 'Thank you — I would be glad to arrange a short call for your return.' });
  }
  if (b.intent.reschedule) {
    open.text = pick(b.tone, { neutral: 'No problem at all — here are a few other options.', formal: 'Not at all; here are some alternative times.' });
    open.short = pick(b.tone, { neutral: 'No problem — a couple of other options:', formal: 'Of course; some alternatives:' });
  }
  const parts: Part[] = [open];
  if (!b.intent.reschedule) parts.push({ text: focusLine(b), para: 0, prio: 1, optional: true });
  return { parts: [...parts, ...meetingCta(b, b.tone === 'direct' ? 'a 20-minute call' : null, 1)], strategy: 'propose_meeting_times' };
}

export function buildConfirmTime(b: Build): Built {
  const p = b.intent.proposed as { day: Date; minutes: number };
  const when = formatSlot({ day: p.day, minutes: p.minutes } as Slot);
  const parts: Part[] = [
    { text: pick(b.tone, { neutral: `${when} (your time) works for me — I'll send a calendar invite shortly.`, formal: `${when} (your time) suits me well; I will send a calendar invitation shortly.`, casual: `${when} works — I'll send an invite shortly.` }), para: 0, prio: 5, cta: true },
  ];
  parts.push({ text: focusLine(b), para: 0, prio: 1, optional: true });
  parts.push({ text: pick(b.tone, { neutral: 'If anything changes, just let me know.', formal: 'Should anything change, please let me know.' }), para: 1, prio: 1, optional: true });
  return { parts, strategy: 'confirm_meeting_time' };
}

const ANSWERS = {
  pricing: [answerPricing, 'answer_pricing_question'],
  how_it_works: [answerHow, 'answer_how_it_works'],
  integration: [answerIntegration, 'answer_integration_question'],
  proof: [answerProof, 'share_customer_proof'],
  differentiation: [answerDifferentiation, 'answer_differentiation_question'],
  timeline: [answerGeneric, 'answer_timeline_question'],
  question: [answerGeneric, 'answer_question'],
} as const;

export function buildAnswer(b: Build): Built {
  const kinds = b.intent.questions.length ? b.intent.questions.slice(0, 2) : ['question' as const];
  const parts: Part[] = [{ ...ack(b, { neutral: 'Thanks for getting back to me.', friendly: 'Thanks so much for getting back to me!', formal: 'Thank you for your reply.', casual: 'Thanks for getting back to me!' }), para: 1 }];
  for (const k of kinds) parts.push(...ANSWERS[k][0](b));
  const cta = b.intent.wantsMeeting ? meetingCta(b, 'a quick call', 2) : softCta(b, topicFor(b.company), 2);
  return { parts: [...parts, ...cta], strategy: ANSWERS[kinds[0]][1] };
}

export function buildSendInfo(b: Build): Built {
  // "Sure, send it over" answers our offer of a specific resource: deliver that, don't re-pitch.
  if (b.convo.offered?.kind === 'resource' && !/\b(info|information|details|deck|overview|brochure)\b/i.test(b.reply)) return buildPositive(b);
  const parts: Part[] = [];
  // Someone who asked for details in writing gets the price too; otherwise it's a bonus line.
  const price = b.facts.pricing[0];
  const sum = [...summary(b.facts, 2), ...(price ? [price] : [])];
  if (sum.length) {
    parts.push({ text: pick(b.tone, { neutral: "Of course — here's the short version.", formal: 'Certainly; here is a brief summary.', casual: "Sure thing — here's the short version." }), para: 0, prio: 2, short: pick(b.tone, { neutral: 'Of course!', formal: 'Certainly.' }) });
    // LinkedIn has room for a second line of substance; WhatsApp doesn't.
    sum.forEach((s, i) => {
      const isPrice = s === price;
      const optional = isPrice ? !b.intent.noCall && b.medium !== 'email' : i > 0 && b.medium !== 'linkedin';
      parts.push({ text: s, para: 0, prio: isPrice ? 2 : 4 - i, short: shortLine(s), optional });
    });
  } else {
    parts.push({ text: pick(b.tone, { neutral: "Of course — I'll send over a short overview today.", formal: 'Certainly; I will send a brief overview today.' }), para: 0, prio: 4, hedge: true });
  }
  if (b.convo.offered?.kind === 'resource') {
    parts.push({ text: `I'll also send over the ${b.convo.offered.phrase} I mentioned.`, para: 1, prio: 3 });
  }
  if (b.intent.noCall) {
    parts.push({ text: 'Any questions, just reply here — happy to go into more detail by email.', short: 'Any questions, just reply here.', para: 2, prio: 5, cta: true });
  } else {
    const who = b.company ? ` for ${b.company}` : '';
    parts.push({
      text: pick(b.tone, { neutral: `If it looks relevant${who}, I'm happy to walk you through it on a 15-minute call — otherwise, any questions, just reply here.`, formal: `If it appears relevant${who}, I would be glad to walk you through it on a 15-minute call; otherwise, please reply here with any questions.`, direct: `If it's relevant${who}, worth a 15-minute call?` }),
      short: pick(b.tone, { neutral: `If it looks relevant, happy to do a quick 15-min call.`, formal: 'If it appears relevant, I would be glad to arrange a short call.' }),
      para: 2, prio: 5, cta: true,
    });
  }
  return { parts, strategy: 'share_info_soft_cta' };
}

export function buildPositive(b: Build): Built {
  const offered = b.convo.offered;
  if (offered?.kind === 'resource') {
    const parts: Part[] = [
      { text: pick(b.tone, { neutral: `Great — I'll get the ${offered.phrase} I mentioned over to you shortly.`, formal: `Thank you; I will send you the ${offered.phrase} I mentioned shortly.` }), para: 0, prio: 4 },
      ...softCta(b, 'it', 1, true),
    ];
    return { parts, strategy: 'follow_through_on_offer' };
  }
  return buildMeeting(b);
}

export function buildLater(b: Build): Built {
  const l = b.intent.later as { target: Date; monthStart: boolean };
  const date = formatDay(l.target);
  const horizon = l.monthStart ? `in early ${date.split(' ')[2]}` : `on ${date}`;
  const plan = l.monthStart
    ? pick(b.tone, { neutral: `I'll reach back out ${horizon} — I've made a note to follow up on ${date}.`, formal: `I will reach out again ${horizon}, and have made a note to follow up on ${date}.`, direct: `Noted — I'll follow up on ${date}.` })
    : pick(b.tone, { neutral: `I'll follow up ${horizon} then.`, formal: `I will follow up ${horizon}.`, direct: `Noted — I'll follow up on ${date}.` });
  return {
    parts: [
      ack(b, { neutral: 'Completely understand — thanks for letting me know.', formal: 'I completely understand, and thank you for letting me know.', casual: 'No worries at all, totally get it.' }),
      { text: plan, para: 0, prio: 5, cta: true },
      { text: pick(b.tone, { neutral: 'If anything changes before then, just reply here.', formal: 'Should anything change before then, please feel free to reply here.' }), para: 1, prio: 1, optional: true },
    ],
    strategy: 'schedule_later_follow_up',
  };
}

export function buildInternalReview(b: Build): Built {
  const date = formatDay((b.intent.later as { target: Date }).target);
  const offer = summary(b.facts, 1)[0];
  const parts: Part[] = [ack(b, { neutral: 'Makes sense — thanks for taking a look.', formal: 'That makes sense; thank you for considering it.', casual: 'Makes total sense!' })];
  if (offer) {
    parts.push({ text: pick(b.tone, { neutral: `If it helps, here's a one-line summary you can forward: ${lcSafe(headline(offer))}`, formal: `Should it help, here is a one-line summary you may forward: ${lcSafe(headline(offer))}` }), para: 0, prio: 3, optional: true });
  }
  parts.push({ text: pick(b.tone, { neutral: `I'll check back in on ${date} unless I hear from you first.`, formal: `I will check back in on ${date}, unless I hear from you beforehand.` }), para: 1, prio: 5, cta: true });
  return { parts, strategy: 'support_internal_review' };
}

export function buildReferral(b: Build): Built {
  const r = b.intent.referral!;
  const who = r.name ?? null;
  const thanks = ack(b, { neutral: 'Thanks for pointing me in the right direction.', formal: 'Thank you for pointing me in the right direction.', casual: 'Thanks for pointing me the right way!' });
  if (who && r.introduced) {
    const firstOf = who.split(' ')[0];
    const intro = summary(b.facts, 1)[0];
    return {
      parts: [
        // Bcc is an email convention; in a chat the intro just gets a thanks.
        { text: pick(b.tone, { neutral: 'Thanks for the intro — moving you to bcc.', formal: 'Thank you for the introduction; I will move you to bcc.' }), short: pick(b.tone, { neutral: 'Thanks for the intro!', formal: 'Thank you for the introduction.' }), para: 0, prio: 3 },
        { text: `${firstOf}, nice to meet you.${intro ? ` ${intro}` : ''}`, short: `${firstOf}, nice to meet you.`, para: 1, prio: 4 },
        ...meetingCta(b, 'a quick call', 2),
      ],
      strategy: 'follow_up_with_referral',
    };
  }
  if (who && r.forwarded && !r.email) {
    const firstOf = who.split(' ')[0];
    return {
      parts: [
        { text: pick(b.tone, { neutral: `Thanks for passing this on to ${who} — much appreciated.`, formal: `Thank you for passing this on to ${who}.` }), para: 0, prio: 4 },
        { text: pick(b.tone, { neutral: `Could you share ${firstOf}'s email so I can follow up directly and mention you suggested it?`, formal: `Could you share ${firstOf}'s email address, so that I may follow up directly and mention your suggestion?` }), para: 0, prio: 5, cta: true },
      ],
      strategy: 'ask_for_referral_intro',
    };
  }
  if (who && r.email) {
    return {
      parts: [thanks, { text: `I'll reach out to ${who} at ${r.email} and mention you suggested I get in touch.`, para: 0, prio: 5, cta: true }],
      strategy: 'contact_referral',
    };
  }
  const person = who ? `${who}${r.role ? ` (your ${r.role})` : ''}` : r.role && !/team$/.test(r.role) ? `your ${r.role}` : null;
  const theirs = who ? `${who.split(' ')[0]}'s` : 'their';
  const ask = person
    ? pick(b.tone, { neutral: `Would you mind introducing me to ${person}? Or if it's easier, share ${theirs} email and I'll reach out directly and mention you suggested it.`, formal: `Would you be willing to introduce me to ${person}? Alternatively, if you share ${theirs} email, I will contact them directly and mention your suggestion.`, direct: `Could you introduce me to ${person}, or share ${theirs} email?` })
    : r.role
      ? `Could you point me to the right person in your ${r.role}, or share their email?`
      : pick(b.tone, { neutral: 'Who would be the best person to speak to about this? Happy to reach out directly.', formal: 'Could you let me know who would be the most appropriate person to speak to about this?' });
  const short = person ? `Could you introduce me to ${person}, or share ${theirs} email?` : undefined;
  return { parts: [thanks, { text: ask, short, para: 0, prio: 5, cta: true }], strategy: 'ask_for_referral_intro' };
}

export function buildWhoAreYou(b: Build): Built {
  const source = b.medium === 'linkedin' ? 'I came across your profile here on LinkedIn'
    : `your ${b.medium === 'whatsapp' || /\b(number|phone)\b/i.test(b.reply) ? 'number' : 'work email'} came from publicly available business contact information`;
  const why = b.facts.offer ? ` ${b.facts.offer}` : '';
  const reason = `I reached out because ${b.company ?? 'your team'} looked like a good fit for what we do.${why}`;
  const optOut = b.classification === 'not_interested' || b.intent.alreadyCovered
    ? "I won't contact you again."
    : "If it's not relevant, just let me know and I won't contact you again.";
  return {
    parts: [
      { text: pick(b.tone, { neutral: `Fair question — ${source}.`, formal: `That is a fair question: ${source}.` }), para: 0, prio: 5 },
      { text: reason, short: `I reached out because ${b.company ?? 'your team'} looked like a good fit for what we do.`, para: 0, prio: 4 },
      { text: optOut, para: 1, prio: 5, cta: true },
    ],
    strategy: 'explain_outreach',
  };
}

export function buildOoo(b: Build): Built {
  const month = b.returnDate ? null : new RegExp(`\\b(?:until|back in|return(?:ing)? in|from)\\s+(?:early |mid-?|late )?(${MONTHS.join('|')})\\b`, 'i').exec(b.reply)?.[1];
  const back = b.returnDate ? ` once you're back on ${formatDay(b.returnDate)}`
    : month ? ` once you're back in ${month[0].toUpperCase()}${month.slice(1).toLowerCase()}` : " once you're back";
  return {
    parts: [{ text: pick(b.tone, { neutral: `Thanks for the heads-up — I'll follow up${back}.`, formal: `Thank you for letting me know; I will follow up${back.replace("you're", 'you are')}.` }), para: 0, prio: 5, cta: true }],
    strategy: 'acknowledge_ooo',
  };
}

export function buildNotInterested(b: Build): Built {
  const parts: Part[] = [
    { text: pick(b.tone, { neutral: 'Thanks for letting me know — I appreciate the reply.', formal: 'Thank you for letting me know; I appreciate your reply.', casual: 'Thanks for letting me know!', direct: 'Understood, thanks for letting me know.' }), para: 0, prio: 5 },
  ];
  if (b.intent.alreadyCovered) parts.push({ text: "Sounds like you're well covered already.", para: 0, prio: 2, optional: true });
  parts.push({ text: "I won't follow up on this.", para: 0, prio: 4 });
  // The well-wish is the closing: no "Best," goes under it (signature.ts).
  parts.push({ text: b.company ? `All the best with everything at ${b.company}` : 'All the best', para: 1, prio: 1, optional: b.medium !== 'email', closing: true });
  return { parts, strategy: 'polite_close' };
}

export function buildUnsubscribe(b: Build): Built {
  const channel = b.medium === 'email' ? 'our list' : 'our contact list';
  return {
    parts: [
      { text: pick(b.tone, { neutral: `Understood — I've removed you from ${channel}, and you won't hear from us again.`, formal: `Understood. I have removed you from ${channel}, and you will not be contacted again.` }), para: 0, prio: 5 },
      { text: 'Apologies for the interruption.', para: 0, prio: 3 },
    ],
    strategy: 'confirm_unsubscribe',
  };
}

export function buildUnclear(b: Build): Built {
  const offer = summary(b.facts, 1)[0];
  const parts: Part[] = [ack(b, { neutral: 'Thanks for the reply.', formal: 'Thank you for your reply.' })];
  if (offer) parts.push({ text: `To make sure I send you something useful, in short: ${lcSafe(headline(offer))}`, short: `In short: ${lcSafe(headline(offer))}`, para: 0, prio: 3 });
  parts.push({
    text: pick(b.tone, { neutral: 'Would a short call be helpful, or would you prefer a quick overview by email?', formal: 'Would a short call be helpful, or would you prefer a brief overview by email?' }),
    para: 1, prio: 5, cta: true,
  });
  return { parts, strategy: 'clarify_next_step' };
}
