// English statements of campaign facts, for an English draft answering from a brief written in another language.
// (English drafts otherwise quote the brief's own sentences: templates.ts and answers.ts.)

import { joinAnd } from '../dates';
import type { Per } from '../price';
import type { FactPhrases } from './phrases';

const PER: Record<Per, string> = { month: ' per month', year: ' per year', user: ' per user', meeting: ' per meeting', lead: ' per lead', hour: ' per hour' };

export const enFacts: FactPhrases = {
  price: (p, noContract) => `${p.from ? 'Pricing starts at' : 'Pricing is'} ${p.amount}${p.per ? PER[p.per] : ''}${noContract ? ' with no long-term contract' : ''}.`,
  integrates: (tools) => `We integrate with ${joinAnd(tools, 'en')}.`,
  clients: (names) => `Clients include ${joinAnd(names, 'en')}.`,
};
