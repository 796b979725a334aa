// Offline suggestion engine: classifier + intent rules + templates + learned edits.
// No network, no randomness: the same input and ctx.now always give the same draft,
// which keeps tests and the eval sample stable and makes it a safe fallback.

import { classifyOffline, detectReturnDate } from '../classify/offline';
import { stripQuoted } from '../classify/strip_quoted';
import { parseCampaign, readConversation } from './context';
import { parseIsoDate } from './dates';
import { firstNameOf, greetingFor, prepare, render, signOffFor, toneOf } from './draft';
import { buildLocal } from './i18n/build';
import { factsIn } from './i18n/facts';
import { factPhrases, phrasesFor } from './i18n';
import { detectIntent, type IntentKind } from './intent';
import { chooseLanguage, registerFor } from './lang';
import { askOffline } from './ask_offline';
import { bestExample } from './learn';
import { applyEdits } from './learn_apply';
import { closeDraft, resign, senderOf } from './signature';
import * as T from './templates';
import { AiEngineError, normalizeMedium, type AiEngine, type SuggestContext, type SuggestInput, type Suggestion } from './types';

export const OFFLINE_MODEL = 'offline-v1';

const BUILDERS: Record<IntentKind, (b: T.Build) => T.Built> = {
  unsubscribe: T.buildUnsubscribe,
  ooo: T.buildOoo,
  referral: T.buildReferral,
  who_are_you: T.buildWhoAreYou,
  later: T.buildLater,
  not_interested: T.buildNotInterested,
  confirm_time: T.buildConfirmTime,
  meeting: T.buildMeeting,
  pricing: T.buildAnswer,
  how_it_works: T.buildAnswer,
  integration: T.buildAnswer,
  proof: T.buildAnswer,
  differentiation: T.buildAnswer,
  timeline: T.buildAnswer,
  internal_review: T.buildInternalReview,
  question: T.buildAnswer,
  send_info: T.buildSendInfo,
  positive: T.buildPositive,
  unclear: T.buildUnclear,
};

// Classifications that agree with an intent. When they disagree the intent rule won
// (e.g. "talk to Jane" scored cold), so the classifier's confidence says little and a
// neutral factor is used instead.
const AGREES: Partial<Record<IntentKind, string[]>> = {
  unsubscribe: ['not_interested', 'cold'],
  ooo: ['ooo'],
  who_are_you: ['cold', 'not_interested', 'warm'],
  later: ['cold', 'warm'],
  not_interested: ['not_interested', 'cold'],
  confirm_time: ['hot', 'warm'],
  meeting: ['hot', 'warm'],
  pricing: ['warm', 'hot'],
  how_it_works: ['warm', 'hot'],
  integration: ['warm', 'hot'],
  differentiation: ['warm', 'hot'],
  timeline: ['warm', 'hot'],
  internal_review: ['warm', 'cold', 'hot'],
  proof: ['warm', 'hot'],
  send_info: ['warm', 'hot'],
  positive: ['hot', 'warm'],
};
const DISAGREE_FACTOR = 0.7;

function clean(s: string | null | undefined): string | null {
  const t = (s ?? '').trim();
  return t && !t.includes('@') ? t : null;
}

function ownText(text: string): string {
  const stripped = stripQuoted(text ?? '').trim();
  return stripped || (text ?? '').trim();
}

export function suggestOffline(input: SuggestInput, ctx: SuggestContext): Suggestion {
  const now = ctx.now;
  const medium = normalizeMedium(input.medium);
  const tone = toneOf(input.tone);
  const reply = ownText(input.reply_received);
  // The prospect's language decides the draft's; "Sie" or "du" follows how they wrote (lang.ts).
  const lang = chooseLanguage(reply, input.previous_messages, input.campaign_context);
  const thread = (input.previous_messages ?? []).slice().reverse();
  const register = registerFor(lang, input.tone, [reply, ...thread.filter((m) => m.role === 'reply').map((m) => m.content), ...thread.filter((m) => m.role === 'outbound').map((m) => m.content)]);
  const P = lang === 'en' ? null : phrasesFor(lang, register);
  const cls = classifyOffline(reply);
  const convo = readConversation(input.previous_messages, reply, now);
  const intent = detectIntent(reply, cls.classification, now, { offered: convo.offeredSlots, optOut: cls.signals.includes('ni.opt_out') });
  const facts = factsIn(parseCampaign(input.campaign_context), lang, factPhrases(lang, register));
  const iso = intent.primary === 'ooo' ? detectReturnDate(reply, now) : null;
  const first = firstNameOf(input.lead_name);
  const company = clean(input.company);
  const b: T.Build = {
    lang, medium, tone, now, convo, intent, facts, first, company, classification: cls.classification, reply,
    returnDate: iso ? parseIsoDate(iso) : null,
  };
  const built = P ? buildLocal(b, P) : BUILDERS[intent.primary](b);
  const sender = senderOf(input.sender_name, input.previous_messages);
  const greeting = P ? P.greeting(first, tone, medium) : greetingFor(tone, medium, first);
  const formula = P ? (medium === 'email' ? P.signOff(tone) : null) : signOffFor(tone, medium);
  let draft = prepare({ greeting, parts: built.parts, signOff: null }, medium, tone, lang);
  draft = closeDraft(draft, { formula, sender, lang, medium });

  let learned = false;
  const match = bestExample(reply, intent.primary, medium, ctx.learned ?? [], (text) => {
    const own = ownText(text);
    return detectIntent(own, classifyOffline(own).classification, now).primary;
  }, lang);
  if (match) {
    // What the prospect and this draft already say; the campaign brief is left out on purpose (learn_guard.ts).
    const known = [reply, ...(input.previous_messages ?? []).map((m) => m.content), draft.parts.map((p) => p.text).join(' '), company ?? ''].join('\n');
    const res = applyEdits(draft, match.example, { first, company, known });
    draft = resign(res.draft, sender);
    learned = res.changed;
  }

  // "cold, no signal" means the classifier had no opinion, not that it disagrees strongly.
  const noOpinion = cls.signals.includes('cold.no_signal');
  const agrees = !noOpinion && (AGREES[intent.primary]?.includes(cls.classification) ?? true);
  let confidence = intent.specificity * (agrees ? cls.confidence : DISAGREE_FACTOR);
  if (built.parts.some((p) => p.hedge)) confidence *= T.HEDGE_FACTOR;
  // A close human-approved precedent makes the draft more trustworthy.
  if (learned && match) confidence += 0.1 * Math.min(1, match.score);
  confidence = Math.round(Math.min(0.99, Math.max(0.05, confidence)) * 100) / 100;

  return {
    suggestion: render(draft, medium),
    strategy: learned ? `${built.strategy}+learned` : built.strategy,
    confidence,
    medium,
    model: OFFLINE_MODEL,
  };
}

export function createOfflineEngine(): AiEngine {
  return {
    model: OFFLINE_MODEL,
    async suggest(input, ctx) {
      if (ctx.signal?.aborted) throw new AiEngineError('aborted', 'suggestion aborted');
      return suggestOffline(input, ctx);
    },
    async ask(question, facts, ctx) {
      if (ctx?.signal?.aborted) throw new AiEngineError('aborted', 'question aborted');
      return askOffline(question, facts);
    },
  };
}
