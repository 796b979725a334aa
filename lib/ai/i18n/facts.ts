// A brief written in one language, a draft in another: its sentences can't be quoted, so the facts that are
// data (price, integrations, customer names) are restated in the draft's language and the rest is left out.
// Nothing is translated word by word, so nothing can be mistranslated into a wrong claim.

import type { CampaignFacts } from '../context';
import type { Lang } from '../lang';
import type { FactPhrases } from './phrases';

export function factsIn(facts: CampaignFacts, lang: Lang, say: FactPhrases): CampaignFacts {
  if (facts.lang === lang || facts.sentences.length === 0) return facts;
  const pricing = facts.price ? [say.price(facts.price, facts.noContract)] : [];
  const integrations = facts.tools.length ? [say.integrates(facts.tools)] : [];
  const proof = facts.clients.length ? [say.clients(facts.clients)] : [];
  return { ...facts, lang, sentences: [...pricing, ...integrations, ...proof], offer: null, pricing, integrations, proof, process: [] };
}
