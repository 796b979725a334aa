// Prompt for hosted models. The rules mirror what the offline engine does by
// construction (medium caps, tone, no pushback on a "no"), and the learned examples
// are the closest human edits so the model imitates how this agency actually writes.

import { stripQuoted } from '../classify/strip_quoted';
import { formatDay, addDays, onOrAfterBusinessDay, utcDay } from './dates';
import { CAPS } from './draft';
import { jaccard } from './learn';
import { normalizeMedium, type LearnedExample, type Medium, type SuggestInput } from './types';

const MAX_EXAMPLES = 5;

const MEDIUM_RULES: Record<Medium, string> = {
  email: 'Email: greeting line, a short body (2-4 short paragraphs), then a sign-off line such as "Best,". Never include a subject line.',
  linkedin: `LinkedIn message: one short paragraph, at most ${CAPS.linkedin} characters, conversational, no formal sign-off, no subject line.`,
  whatsapp: `WhatsApp message: at most ${CAPS.whatsapp} characters, casual, no formal sign-off, no subject line.`,
};

function toneRule(tone: string | null | undefined): string {
  const t = (tone ?? '').trim();
  if (!t) return 'Tone: professional and warm, contractions are fine.';
  return `Tone: ${t}. Formal means "Dear <first name>," with no contractions or emojis; casual/friendly means "Hi <first name>," with contractions; direct means the shortest possible message with exactly one clear ask.`;
}

/** The learned examples for this medium, most similar reply first. */
export function relevantExamples(input: SuggestInput, learned: LearnedExample[]): LearnedExample[] {
  const medium = normalizeMedium(input.medium);
  return learned
    .filter((e) => e.medium === medium && e.edited?.trim())
    .map((e, i) => ({ e, i, s: jaccard(input.reply_received, e.replyText) }))
    .sort((a, b) => b.s - a.s || a.i - b.i)
    .slice(0, MAX_EXAMPLES)
    .map((x) => x.e);
}

export function buildSystemPrompt(input: SuggestInput, learned: LearnedExample[], now: Date): string {
  const medium = normalizeMedium(input.medium);
  const nextDays: string[] = [];
  for (let d = onOrAfterBusinessDay(addDays(utcDay(now), 1)); nextDays.length < 3; d = onOrAfterBusinessDay(addDays(d, 1))) nextDays.push(formatDay(d));
  const lines = [
    'You write the reply a sales development rep (SDR) will send to a prospect who answered a cold outreach message.',
    'Write a useful, specific draft that a human would send with light edits. Rules:',
    '- Address the prospect by first name if known; otherwise a neutral greeting. Never use their email address as a name.',
    '- Meeting/call requests: propose two or three concrete slots on upcoming business days with times, and offer to send a calendar invite.',
    '- Questions (pricing, how it works, integrations, customers): answer using only facts from the campaign context; if the context does not say, say you will confirm. Never invent prices or customer names.',
    '- "Send more info": a short summary from the campaign context plus a soft next step.',
    '- "Reach out later/next quarter": acknowledge and commit to a concrete follow-up date.',
    '- Referral to a colleague: thank them and ask for an introduction.',
    '- "Who are you / how did you get my details": a transparent explanation and an offer not to contact them again.',
    '- Out of office: a short note referencing their return date when given.',
    '- Not interested: a polite close with no pushback. Unsubscribe: confirm they will not be contacted again, with no call to action.',
    '- Use previous messages: refer back to what was offered; never re-ask something the prospect already answered.',
    "- Write in the prospect's language (the language of reply_received; for a one-word reply, the language of the thread). Dates and times in that language.",
    '- When the prospect proposes a day and time (or picks one of the times offered earlier), confirm exactly that slot and do not propose others.',
    '- A price or feature question that campaign_context answers gets that answer, the price copied exactly as written there.',
    '- Sign with sender_name when it is given; otherwise end with a closing formula and no name. Exactly one closing: a final well-wish is the closing.',
    `- ${MEDIUM_RULES[medium]}`,
    `- ${toneRule(input.tone)}`,
    `Today is ${formatDay(utcDay(now))} ${now.getUTCFullYear()} (UTC); upcoming business days include ${nextDays.join(', ')}.`,
    'Answer with a JSON object only: {"suggestion": string, "strategy": snake_case string naming your approach (e.g. propose_meeting_times, answer_pricing_question, polite_close), "confidence": number between 0 and 1}.',
  ];
  const examples = relevantExamples(input, learned);
  if (examples.length) {
    lines.push('', "Past drafts a human edited before sending. Follow the edits' wording and style (what was removed, added or reworded), not the original drafts; never copy their specifics (names, companies, events, numbers) into this prospect's reply:");
    examples.forEach((e, i) => {
      lines.push(
        `Example ${i + 1} — prospect wrote: ${JSON.stringify(e.replyText)}`,
        `  Draft: ${JSON.stringify(e.original)}`,
        `  Human sent instead: ${JSON.stringify(e.edited)}`,
      );
    });
  }
  return lines.join('\n');
}

// lead_email is left out on purpose: models like to greet "Hi jane.doe@…" when no name is given.
export function buildUserPrompt(input: SuggestInput): string {
  const payload = {
    // The quoted thread is noise for the model; earlier turns come via previous_messages.
    reply_received: stripQuoted(input.reply_received ?? '').trim() || input.reply_received,
    lead_name: input.lead_name ?? null,
    company: input.company ?? null,
    campaign_context: input.campaign_context ?? null,
    medium: normalizeMedium(input.medium),
    tone: input.tone ?? null,
    sender_name: input.sender_name ?? null,
    previous_messages: (input.previous_messages ?? []).slice(-10),
  };
  return `Write the reply for this conversation:\n${JSON.stringify(payload, null, 2)}`;
}
