// Written mails as the review tools show them: every sentence with its source (null = the writer could not source
// it, which review_approve refuses).
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { batchLeads, type WrittenMail } from '../../schema';

export const SourceSchema = z.object({ kind: z.enum(['field', 'playbook', 'docs', 'rule', 'sequence', 'edit']), ref: z.string() });

export const WrittenMailSchema = z.object({
  step: z.number().int(),
  subject: z.string().nullable(),
  delay_days: z.number().int(),
  sentences: z.array(z.object({ text: z.string(), source: SourceSchema.nullable() })),
  body: z.string(),
});

export type MissingSource = { step: number; sentence: number; text: string };

/** The sentences without a source, by mail step and sentence index (0-based). */
export function missingSources(mails: readonly WrittenMail[] | null): MissingSource[] {
  if (!mails) return [];
  return mails.flatMap((m) => m.sentences.flatMap((s, i) => (s.source ? [] : [{ step: m.step, sentence: i, text: s.text }])));
}

const EXCERPT = 160;

/** The first mail's opening, whitespace collapsed: enough to tell leads apart in a review list. */
export function excerptOf(mails: readonly WrittenMail[] | null): string | null {
  const first = mails?.slice().sort((a, b) => a.step - b.step)[0];
  if (!first) return null;
  const text = first.body.replace(/\s+/g, ' ').trim();
  return text.length > EXCERPT ? `${text.slice(0, EXCERPT - 1)}…` : text;
}

/** SQL: the batch lead's mails hold a sentence without a source (missing or null), what missingSources finds in JS. */
export const hasUnsourcedSentence = sql`exists (select 1 from jsonb_array_elements(${batchLeads.mails}) m, jsonb_array_elements(m->'sentences') s
  where coalesce(jsonb_typeof(s->'source'), 'null') = 'null')`;
