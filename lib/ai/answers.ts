// Answer-shaped sentences for questions, built only from campaign_context. When the
// context has no answer we say we'll check, rather than inventing a number or a
// customer name — a wrong price in a reply costs more than a slower answer.

import { clauseTrim, headline, type CampaignFacts } from './context';
import { pick, type Part } from './draft';
import type { Build } from './templates';
import { joinAnd } from './dates';

/** Lowercases the first letter only for words that are safe to lowercase mid-sentence. */
export function lcSafe(s: string): string {
  return /^(We|Our|The|It|Its|This|That|Pricing|Most|All|Every|Clients|Customers|Brands|Teams|Companies)\b/.test(s) ? s[0].toLowerCase() + s.slice(1) : s;
}

/** Up to `n` sentences describing the offer: what it is, then how/proof. */
export function summary(f: CampaignFacts, n: number): string[] {
  const order = [f.offer, ...f.process, ...f.proof].filter((s): s is string => !!s);
  return [...new Set(order)].slice(0, n);
}

const STOP = new Set('the a an and or to of in on for is are do does you your we our it this that with how what can i me my be at as by from about any there have has will would could take see get make work long much many like only just'.split(' '));

function contentWords(s: string): Set<string> {
  return new Set((s.toLowerCase().match(/[a-z0-9$€£]+/g) ?? []).filter((w) => w.length > 2 && !STOP.has(w)).map((w) => w.replace(/(ing|es|s)$/, '')));
}

export function answerPricing(b: Build): Part[] {
  const f = b.facts;
  if (f.pricing.length) {
    const parts: Part[] = [{ text: f.pricing.slice(0, 2).join(' '), short: `${clauseTrim(f.pricing[0], 160)}.`, para: 1, prio: 4 }];
    // Only restate what the price covers when the brief actually describes the work.
    const included = f.process.find((s) => !f.pricing.includes(s) && /^(We|Our)\b/.test(s));
    if (included) parts.push({ text: `That covers the full service: ${lcSafe(included)}`, para: 1, prio: 2, optional: true });
    return parts;
  }
  const target = b.company ?? 'you';
  const parts: Part[] = [{
    text: pick(b.tone, { neutral: `Pricing depends on scope, so instead of quoting a generic range I'd like to put together a real number for ${target}.`, formal: `Pricing depends on the scope of work, so I would prefer to prepare an accurate figure for ${target} rather than quote a generic range.` }),
    short: `Pricing depends on scope — I'd rather give you a real number than a range.`,
    para: 1, prio: 4, hedge: true,
  }];
  if (!b.convo.known.teamSize) {
    parts.push({ text: pick(b.tone, { neutral: 'Roughly how many people on your side would be involved?', formal: 'Could you share roughly how many people on your side would be involved?' }), para: 1, prio: 3, optional: true });
  }
  return parts;
}

export function answerHow(b: Build): Part[] {
  const f = b.facts;
  const offered = b.convo.offered;
  // Process sentences answer "how"; if they asked about something we offered, lead with it.
  const noun = offered?.phrase.split(' ').pop() ?? '';
  const about = noun ? f.sentences.filter((s) => s.toLowerCase().includes(noun)) : [];
  // The answer itself is the opener; a filler like "Happy to explain." only repeats the CTA.
  const lead = offered && offered.kind === 'resource' && !about.length ? `Here's how the ${offered.phrase} works. ` : '';
  const body = [...new Set([...about, ...f.process, ...summary(f, 3)])].slice(0, 2);
  if (!body.length) {
    return [{ text: "Sure — it's easiest to show on screen, and it only takes about 15 minutes.", para: 1, prio: 4, hedge: true }];
  }
  return [
    { text: `${lead}${body[0]}`, short: `${clauseTrim(body[0], 170)}.`, para: 1, prio: 4 },
    ...body.slice(1).map((s, i) => ({ text: s, para: 1, prio: 3 - i, optional: i > 0 })),
  ];
}

export function answerIntegration(b: Build): Part[] {
  const f = b.facts;
  // Tools we don't know by name ("Xero") still count when the brief mentions them.
  const named = (b.intent.questionText ?? '').match(/(?<=\S\s)[A-Z][\w.]+/g) ?? [];
  const asked = [...new Set([...b.intent.tools, ...named.filter((w) => f.integrations.some((s) => s.includes(w)))])];
  const known = [...f.tools, ...named.filter((w) => f.integrations.some((s) => s.includes(w)))];
  const supported = asked.filter((t) => known.includes(t));
  const missing = asked.filter((t) => !known.includes(t));
  const sentence = f.integrations.find((s) => supported.some((t) => s.includes(t))) ?? f.integrations[0];
  const parts: Part[] = [];
  if (supported.length && sentence) {
    parts.push({ text: `Yes — ${lcSafe(sentence)}`, short: `Yes — ${clauseTrim(lcSafe(sentence), 150)}.`, para: 1, prio: 4 });
  } else if (sentence) {
    parts.push({ text: sentence, para: 1, prio: 4 });
  }
  if (missing.length) {
    parts.push({ text: `I'll confirm exactly how it works with ${joinAnd(missing)} and get back to you.`, para: 1, prio: 4, hedge: true });
  } else if (!sentence) {
    parts.push({ text: `Let me confirm the integration details with our team and come back to you.`, para: 1, prio: 4, hedge: true });
    if (!b.convo.known.tools.length) parts.push({ text: 'Which tools are you using today?', para: 1, prio: 3, optional: true });
  }
  return parts;
}

export function answerProof(b: Build): Part[] {
  const f = b.facts;
  if (f.proof.length) {
    return [
      { text: pick(b.tone, { neutral: `Sure — ${lcSafe(f.proof[0])}`, formal: f.proof[0] }), short: `${clauseTrim(f.proof[0], 150)}.`, para: 1, prio: 4 },
      { text: `I can also send over a case study from a team similar to ${b.company ?? 'yours'}.`, para: 1, prio: 2, optional: true },
    ];
  }
  return [{ text: `Happy to share relevant examples — I'll send over a short case study from a team similar to ${b.company ?? 'yours'}.`, short: "Happy to share a relevant case study.", para: 1, prio: 4, hedge: true }];
}

export function answerDifferentiation(b: Build): Part[] {
  const f = b.facts;
  const [offer, proof] = [f.offer, f.proof[0]];
  if (!offer) return answerGeneric(b);
  return [
    { text: pick(b.tone, { neutral: `Good question. ${offer}`, formal: `That is a fair question. ${offer}` }), short: `Good question — ${lcSafe(headline(offer))}`, para: 1, prio: 4 },
    ...(proof ? [{ text: proof, para: 1, prio: 3, optional: true }] : []),
  ];
}

const TIMELINE_Q = /\b(how (?:long|soon|quickly|fast)|when (?:will|would|do|can) (?:we|i)|timeline|time to|how many weeks)\b/i;
const TIMELINE_A = /\b(within|\d+\s*(?:days?|weeks?|months?)|first (?:week|month))\b/i;

/** The clause of a sentence that answers, e.g. "most see their first booked meetings within 3 weeks". */
function clauseMatching(s: string, re: RegExp): string {
  const clauses = s.replace(/[.!?]$/, '').split(/;\s+|,\s+(?:and|but|so)\s+|:\s+/);
  const hit = clauses.find((c) => re.test(c));
  return hit && hit !== s ? `${hit[0].toUpperCase()}${hit.slice(1)}.` : s;
}

export function answerGeneric(b: Build): Part[] {
  const question = b.intent.questionText ?? '';
  const q = contentWords(question);
  const timeline = TIMELINE_Q.test(question);
  let best: string | null = null;
  let bestScore = 0;
  for (const s of b.facts.sentences) {
    const score = [...contentWords(s)].filter((w) => q.has(w)).length + (timeline && TIMELINE_A.test(s) ? 2 : 0);
    if (score > bestScore) { best = s; bestScore = score; }
  }
  if (best && timeline && TIMELINE_A.test(best)) best = clauseMatching(best, TIMELINE_A);
  if (best) return [{ text: pick(b.tone, { neutral: `Good question — ${lcSafe(best)}`, formal: best }), para: 1, prio: 4 }];
  return [{
    text: pick(b.tone, { neutral: "Good question — I want to give you an accurate answer, so let me check and come back to you shortly.", formal: 'That is a good question; I would like to give you an accurate answer, so I will check and come back to you shortly.' }),
    short: "Good question — let me check and come back to you shortly.",
    para: 1, prio: 4, hedge: true,
  }];
}
