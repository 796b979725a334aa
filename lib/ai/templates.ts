// One builder per strategy. Each returns sentences (Parts), never final prose, so
// tone, length caps and learned edits are applied uniformly afterwards.
// Rule of thumb for wording: what an experienced SDR would send — answer first,
// one clear next step, no pushback on a "no".

import { clauseTrim, type CampaignFacts, type Conversation } from './context';
import { meetingCta, softCta, type CtaEnv } from './cta';
import { formatDay, formatSlot, type Slot } from './dates';
import { pick, type ByTone, type Part } from './draft';
import type { Intent } from './intent';
import { answerIntegration, answerPricing, answerProof, answerHow, answerGeneric, lcSafe, summary } from './answers';

export interface Build extends CtaEnv {
  first: string | null;
  company: string | null;
  facts: CampaignFacts;
  convo: Conversation;
  intent: Intent;
  returnDate: Date | null;
}

export interface Built { parts: Part[]; strategy: string }


function ack(b: Build, v: ByTone): Part {
  return { text: pick(b.tone, v), para: 0, prio: 1, optional: true };
}

function meetingNoun(convo: Conversation): string {
  return convo.offered?.kind === 'meeting' ? `the ${convo.offered.phrase} I mentioned` : 'a quick call';
}

export function buildMeeting(b: Build): Built {
  const noun = meetingNoun(b.convo);
  const open: Part = {
    text: pick(b.tone, { neutral: `Thanks for getting back to me — happy to set up ${noun}.`, friendly: `Great to hear from you — I'd love to set up ${noun}!`, casual: `Great — let's set up ${noun}.`, formal: `Thank you for your reply; I would be glad to arrange ${noun.replace('quick', 'short')}.` }),
    short: pick(b.tone, { neutral: `Thanks — happy to set up ${noun}.`, casual: `Great, let's set up ${noun}.`, formal: `Thank you — I would be glad to arrange ${noun.replace('quick', 'short')}.` }),
    para: 0, prio: 2,
  };
  const parts: Part[] = [open];
  if (b.facts.offerPhrase) {
    const focus = `I'll keep it to 20 minutes and walk you through ${b.facts.offerPhrase}${b.company ? `, applied to ${b.company}` : ''}.`;
    parts.push({ text: focus, para: 0, prio: 1, optional: true });
  }
  return { parts: [...parts, ...meetingCta(b, null, 1)], strategy: 'propose_meeting_times' };
}

export function buildConfirmTime(b: Build): Built {
  const p = b.intent.proposed as { day: Date; minutes: number };
  const when = formatSlot({ day: p.day, minutes: p.minutes } as Slot);
  const parts: Part[] = [
    { text: pick(b.tone, { neutral: `${when} (your time) works for me — I'll send a calendar invite shortly.`, formal: `${when} (your time) suits me well; I will send a calendar invitation shortly.`, casual: `${when} works — I'll send an invite shortly.` }), para: 0, prio: 5, cta: true },
  ];
  if (b.facts.offerPhrase) {
    parts.push({ text: `I'll keep it to 20 minutes and walk you through ${b.facts.offerPhrase}${b.company ? `, applied to ${b.company}` : ''}.`, para: 0, prio: 1, optional: true });
  }
  parts.push({ text: pick(b.tone, { neutral: 'If anything changes, just let me know.', formal: 'Should anything change, please let me know.' }), para: 1, prio: 1, optional: true });
  return { parts, strategy: 'confirm_meeting_time' };
}

const ANSWERS = {
  pricing: [answerPricing, 'answer_pricing_question'],
  how_it_works: [answerHow, 'answer_how_it_works'],
  integration: [answerIntegration, 'answer_integration_question'],
  proof: [answerProof, 'share_customer_proof'],
  question: [answerGeneric, 'answer_question'],
} as const;

export function buildAnswer(b: Build): Built {
  const kinds = b.intent.questions.length ? b.intent.questions.slice(0, 2) : ['question' as const];
  const parts: Part[] = [ack(b, { neutral: 'Thanks for getting back to me.', friendly: 'Thanks so much for getting back to me!', formal: 'Thank you for your reply.', casual: 'Good question!' })];
  for (const k of kinds) parts.push(...ANSWERS[k][0](b));
  const cta = b.intent.wantsMeeting ? meetingCta(b, 'a quick call', 2) : softCta(b, b.company, 2);
  return { parts: [...parts, ...cta], strategy: ANSWERS[kinds[0]][1] };
}

export function buildSendInfo(b: Build): Built {
  const parts: Part[] = [];
  const sum = summary(b.facts, 2);
  if (sum.length) {
    parts.push({ text: pick(b.tone, { neutral: "Of course — here's the short version.", formal: 'Certainly; here is a brief summary.', casual: "Sure thing — here's the short version." }), para: 0, prio: 2, short: pick(b.tone, { neutral: 'Of course!', formal: 'Certainly.' }) });
    sum.forEach((s, i) => parts.push({ text: s, para: 1, prio: 4 - i, short: i === 0 ? `${clauseTrim(s, 150)}.` : undefined, optional: i > 0 }));
  } else {
    parts.push({ text: pick(b.tone, { neutral: "Of course — I'll send over a short overview today.", formal: 'Certainly; I will send a brief overview today.' }), para: 0, prio: 4 });
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
    const forCo = b.company ? ` for ${b.company}` : '';
    const parts: Part[] = [
      { text: pick(b.tone, { neutral: `Great — I'll put together the ${offered.phrase}${forCo} and send it over.`, formal: `Thank you; I will prepare the ${offered.phrase}${forCo} and send it to you.` }), para: 0, prio: 4 },
      ...softCta(b, b.company, 1),
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

export function buildReferral(b: Build): Built {
  const r = b.intent.referral!;
  const who = r.name ?? null;
  const thanks = ack(b, { neutral: 'Thanks for pointing me in the right direction.', formal: 'Thank you for pointing me in the right direction.', casual: 'Thanks for pointing me the right way!' });
  if (who && r.introduced) {
    const firstOf = who.split(' ')[0];
    const intro = summary(b.facts, 1)[0];
    return {
      parts: [
        { text: pick(b.tone, { neutral: 'Thanks for the intro — moving you to bcc.', formal: 'Thank you for the introduction; I will move you to bcc.' }), para: 0, prio: 3 },
        { text: `${firstOf}, nice to meet you.${intro ? ` ${intro}` : ''}`, short: `${firstOf}, nice to meet you.`, para: 1, prio: 4 },
        ...meetingCta(b, 'a quick call', 2),
      ],
      strategy: 'follow_up_with_referral',
    };
  }
  if (who && r.email) {
    return {
      parts: [thanks, { text: `I'll reach out to ${who} at ${r.email} and mention you suggested I get in touch.`, para: 0, prio: 5, cta: true }],
      strategy: 'contact_referral',
    };
  }
  const ask = who
    ? pick(b.tone, { neutral: `Would you mind introducing me to ${who}${r.role ? ` (${r.role})` : ''}? If it's easier, I can reach out directly and mention you suggested it — could you share the best email?`, formal: `Would you be willing to introduce me to ${who}${r.role ? ` (${r.role})` : ''}? Alternatively, I could contact them directly and mention your suggestion.`, direct: `Could you introduce me to ${who}, or share their email?` })
    : r.role
      ? `Could you point me to the right person in ${r.role}, or share their email?`
      : pick(b.tone, { neutral: 'Who would be the best person to speak to about this? Happy to reach out directly.', formal: 'Could you let me know who would be the most appropriate person to speak to about this?' });
  return { parts: [thanks, { text: ask, short: who ? `Could you introduce me to ${who}, or share their email?` : undefined, para: 0, prio: 5, cta: true }], strategy: 'ask_for_referral_intro' };
}

export function buildWhoAreYou(b: Build): Built {
  const source = b.medium === 'linkedin' ? 'I came across your profile here on LinkedIn'
    : b.medium === 'whatsapp' ? 'your number was listed as a business contact' : 'your work email came from publicly available business contact information';
  const why = b.facts.offer ? ` ${b.facts.offer}` : '';
  const reason = `I reached out because ${b.company ?? 'your team'} looked like a good fit for what we do.${why}`;
  const optOut = b.intent.alreadyCovered || /not interested|stop/i.test(b.intent.questionText ?? '')
    ? 'I won’t contact you again.'
    : 'If it’s not relevant, just let me know and I won’t contact you again.';
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
  const back = b.returnDate ? ` once you're back on ${formatDay(b.returnDate)}` : " once you're back";
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
  parts.push({ text: 'I won’t follow up on this.', para: 0, prio: 4 });
  parts.push({ text: b.company ? `All the best with everything at ${b.company}.` : 'All the best.', para: 1, prio: 1, optional: b.medium !== 'email' });
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
  if (offer) parts.push({ text: `To make sure I send you something useful, in short: ${lcSafe(offer)}`, short: `In short: ${clauseTrim(lcSafe(offer), 140)}.`, para: 0, prio: 3 });
  parts.push({
    text: pick(b.tone, { neutral: 'Would a short call be helpful, or would you prefer a quick overview by email?', formal: 'Would a short call be helpful, or would you prefer a brief overview by email?' }),
    para: 1, prio: 5, cta: true,
  });
  return { parts, strategy: 'clarify_next_step' };
}
