// Answer-shaped sentences for questions, built only from campaign_context. When the
// context has no answer we say we'll check, rather than inventing a number or a
// customer name — a wrong price in a reply costs more than a slower answer.

import { clauseTrim, type CampaignFacts } from './context';
import { pick, type Part } from './draft';
import type { Build } from './templates';
import { joinAnd } from './dates';

/** Lowercases the first letter only for words that are safe to lowercase mid-sentence. */
export function lcSafe(s: string): string {
  return /^(We|Our|The|It|Its|This|That|Pricing|Most|All|Every)\b/.test(s) ? s[0].toLowerCase() + s.slice(1) : s;
}

/** Up to `n` sentences describing the offer: what it is, then how/proof. */
export function summary(f: CampaignFacts, n: number): string[] {
  const order = [f.offer, ...f.process, ...f.proof].filter((s): s is string => !!s);
  return [...new Set(order)].slice(0, n);
}

const STOP = new Set('the a an and or to of in on for is are do does you your we our it this that with how what can i me my be at as by from about any there have has will would could'.split(' '));

function contentWords(s: string): Set<string> {
  return new Set((s.toLowerCase().match(/[a-z0-9$€£]+/g) ?? []).filter((w) => w.length > 2 && !STOP.has(w)).map((w) => w.replace(/(ing|es|s)$/, '')));
}

export function answerPricing(b: Build): Part[] {
  const f = b.facts;
  if (f.pricing.length) {
    const parts: Part[] = [{ text: f.pricing.slice(0, 2).join(' '), short: `${clauseTrim(f.pricing[0], 160)}.`, para: 1, prio: 4 }];
    const included = f.process[0] ?? f.offer;
    if (included && !f.pricing.includes(included)) {
      parts.push({ text: `For context, ${lcSafe(included)}`, para: 1, prio: 2, optional: true });
    }
    return parts;
  }
  const target = b.company ?? 'you';
  const parts: Part[] = [{
    text: pick(b.tone, { neutral: `Pricing depends on scope, so rather than quote a generic range I'd rather put together a real number for ${target}.`, formal: `Pricing depends on the scope of work, so I would prefer to prepare an accurate figure for ${target} rather than quote a generic range.` }),
    short: `Pricing depends on scope — I'd rather give you a real number than a range.`,
    para: 1, prio: 4,
  }];
  if (!b.convo.known.teamSize) {
    parts.push({ text: pick(b.tone, { neutral: 'Roughly how many people on your side would be involved?', formal: 'Could you share roughly how many people on your side would be involved?' }), para: 1, prio: 3, optional: true });
  }
  return parts;
}

export function answerHow(b: Build): Part[] {
  const f = b.facts;
  const offered = b.convo.offered;
  const lead = offered && offered.kind === 'resource'
    ? `Here's how the ${offered.phrase} works.`
    : pick(b.tone, { neutral: 'Happy to explain.', formal: 'I would be glad to explain.', direct: 'In short:' });
  const body = summary(f, 3);
  if (!body.length) {
    return [{ text: `${lead} The short version is easiest to show on screen — it takes about 15 minutes.`, para: 1, prio: 4 }];
  }
  return [
    { text: `${lead} ${body[0]}`, short: `${clauseTrim(body[0], 170)}.`, para: 1, prio: 4 },
    ...body.slice(1).map((s, i) => ({ text: s, para: 1, prio: 3 - i, optional: i > 0 })),
  ];
}

export function answerIntegration(b: Build): Part[] {
  const f = b.facts;
  const asked = b.intent.tools;
  const supported = asked.filter((t) => f.tools.includes(t));
  const missing = asked.filter((t) => !f.tools.includes(t));
  const sentence = f.integrations.find((s) => supported.some((t) => s.includes(t))) ?? f.integrations[0];
  const parts: Part[] = [];
  if (supported.length && sentence) {
    parts.push({ text: `Yes — ${lcSafe(sentence)}`, short: `Yes — ${clauseTrim(lcSafe(sentence), 150)}.`, para: 1, prio: 4 });
  } else if (sentence) {
    parts.push({ text: sentence, para: 1, prio: 4 });
  }
  if (missing.length) {
    parts.push({ text: `I'll confirm exactly how it works with ${joinAnd(missing)} and get back to you.`, para: 1, prio: 4 });
  } else if (!sentence) {
    parts.push({ text: `Let me confirm the integration details with our team and come back to you.`, para: 1, prio: 4 });
    if (!b.convo.known.tools.length) parts.push({ text: 'Which tools are you using today?', para: 1, prio: 3, optional: true });
  }
  return parts;
}

export function answerProof(b: Build): Part[] {
  const f = b.facts;
  if (f.proof.length) {
    return [
      { text: pick(b.tone, { neutral: `Sure — ${lcSafe(f.proof[0])}`, formal: f.proof[0] }), short: `${clauseTrim(f.proof[0], 150)}.`, para: 1, prio: 4 },
      { text: `Happy to send a case study from a team similar to ${b.company ?? 'yours'}.`, para: 1, prio: 2, optional: true },
    ];
  }
  return [{ text: `Happy to share relevant examples — I'll send over a short case study from a team similar to ${b.company ?? 'yours'}.`, short: "Happy to share a relevant case study.", para: 1, prio: 4 }];
}

export function answerGeneric(b: Build): Part[] {
  const q = contentWords(b.intent.questionText ?? '');
  let best: string | null = null;
  let bestScore = 0;
  for (const s of b.facts.sentences) {
    const score = [...contentWords(s)].filter((w) => q.has(w)).length;
    if (score > bestScore) { best = s; bestScore = score; }
  }
  if (best) return [{ text: pick(b.tone, { neutral: `Good question — ${lcSafe(best)}`, formal: best }), para: 1, prio: 4 }];
  return [{
    text: pick(b.tone, { neutral: "Good question — I want to give you an accurate answer, so let me check and come back to you shortly.", formal: 'That is a good question; I would like to give you an accurate answer, so I will check and come back to you shortly.' }),
    short: "Good question — let me check and come back to you shortly.",
    para: 1, prio: 4,
  }];
}
