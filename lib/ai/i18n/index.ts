// The phrasebook for a draft's language and register.
import type { Lang, Register } from '../lang';
import { de } from './de';
import { enFacts } from './en';
import { es } from './es';
import { fr } from './fr';
import { nl } from './nl';
import type { FactPhrases, Phrases } from './phrases';

export type { FactPhrases, Phrases } from './phrases';

const BOOKS = { de, fr, es, nl };

/** Phrases for a non-English draft; English drafts use templates.ts. */
export function phrasesFor(lang: Exclude<Lang, 'en'>, register: Register): Phrases {
  return BOOKS[lang](register);
}

export function factPhrases(lang: Lang, register: Register): FactPhrases {
  return lang === 'en' ? enFacts : phrasesFor(lang, register);
}
