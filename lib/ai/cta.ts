// Calls to action shared by several strategies. Proposing concrete times beats
// "let me know when you're free": it turns a reply into a yes/no decision.

import { formatDay, formatSlot, formatTime, joinOr, proposeSlots, type Slot } from './dates';
import type { Part, Tone } from './draft';
import type { Conversation } from './context';
import type { Intent } from './intent';
import type { Medium } from './types';

export interface CtaEnv {
  medium: Medium;
  tone: Tone;
  now: Date;
  convo: Conversation;
  intent: Intent;
}

export function slotsFor(env: CtaEnv): Slot[] {
  const named = env.intent.weekdays.length;
  // Two named days ("Tuesday or Wednesday"): one slot on each, not a third day they didn't offer.
  const count = named >= 2 ? Math.min(named, 3) : env.medium === 'email' && env.tone !== 'direct' ? 3 : 2;
  return proposeSlots(env.now, {
    count,
    dayPart: env.convo.known.dayPart,
    weekdays: env.intent.weekdays,
    blocked: env.intent.blockedWeekdays,
    nextWeek: env.intent.nextWeek,
    notBefore: env.intent.notBefore,
    avoid: env.convo.proposedDates,
  });
}

export function slotList(slots: Slot[]): string {
  if (slots.length > 1 && slots.every((s) => s.day.getTime() === slots[0].day.getTime())) {
    return `${formatDay(slots[0].day)} at ${joinOr(slots.map((s) => formatTime(s.minutes)))}`;
  }
  return joinOr(slots.map((s) => formatSlot(s)));
}

/**
 * "Would A, B or C (your time) work for a quick call? I'll send an invite for whichever suits."
 * `what` names the meeting when the preceding sentences haven't already.
 */
export function meetingCta(env: CtaEnv, what: string | null, para: number): Part[] {
  const slots = slotsFor(env);
  const list = `${slotList(slots)} (your time)`;
  const singleDay = slots.length > 1 && slots[0].day.getTime() === slots[1].day.getTime();
  const forWhat = what ? ` for ${what}` : '';
  const ask = env.tone === 'formal'
    ? `Would ${list} be convenient${forWhat}?`
    : singleDay
      ? `${formatDay(slots[0].day)} works for me — would ${joinOr(slots.map((s) => formatTime(s.minutes)))} (your time) suit you better?`
      : `Would ${list} work${forWhat ? forWhat : ' for you'}?`;
  const invite = env.tone === 'formal'
    ? `I will send a calendar invitation for whichever ${singleDay ? 'time' : 'slot'} suits you.`
    : env.tone === 'casual' ? "I'll send an invite over." : singleDay ? "I'll send a calendar invite as soon as you confirm." : "I'll send a calendar invite for whichever suits.";
  const shortInvite = env.tone === 'formal' ? 'I will send an invitation.' : "I'll send an invite.";
  const parts: Part[] = [
    { text: ask, para, prio: 5, cta: true },
    { text: invite, short: shortInvite, para, prio: 3 },
  ];
  if (env.medium === 'email' && env.tone !== 'direct') {
    const fallback = env.tone === 'formal'
      ? 'Should none of these suit you, please suggest a couple of times that do.'
      : slots.length === 2 ? 'If neither works, just suggest another time.' : 'If none of those work, just send me a couple of times that do.';
    parts.push({ text: fallback, para, prio: 1, optional: true });
  }
  return parts;
}

export function topicFor(company: string | null): string {
  return company ? `what this would look like for ${company}` : 'what this would look like for you';
}

/**
 * Softer close for answers: a call if they're open to it, otherwise keep it in email.
 * `afterLook` is for resources we're about to send: the call comes once they've read it.
 */
export function softCta(env: CtaEnv, topic: string, para: number, afterLook = false): Part[] {
  if (env.intent.noCall) {
    return [{ text: "Any other questions, just reply here and I'll answer by email.", short: 'Any other questions, just reply here.', para, prio: 5, cta: true }];
  }
  const slots = slotsFor({ ...env, medium: 'linkedin' });
  const list = `${slotList(slots)} (your time)`;
  const text = env.tone === 'formal'
    ? `${afterLook ? 'Once you have had a look, I' : 'I'} would be glad to walk you through ${topic} on a short call — would ${list} be convenient?`
    : `${afterLook ? "Once you've had a look, happy" : 'Happy'} to walk you through ${topic} on a quick call — would ${list} work?`;
  return [{ text, short: `Worth a quick call — ${list}?`, para, prio: 5, cta: true }];
}
