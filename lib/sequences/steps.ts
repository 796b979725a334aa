import { z } from 'zod';
import type { SequenceStep } from '../../schema';
import { isKnownPlaceholder, LEAD_FIELDS, SENDER_NAME } from './fields';
import { hasStrayBraces, placeholdersOf } from './render';

export const MAX_STEPS = 10;
export const MAX_SUBJECT = 200;
export const MAX_BODY = 5000;
export const MAX_DELAY_DAYS = 60;
export const CONDITIONS = ['always', 'no_reply', 'no_positive_reply'] as const;

const KNOWN = `known: ${LEAD_FIELDS.join(', ')}, custom.<column_key>, ${SENDER_NAME}`;

const StepInput = z
  .object({
    subject: z.string().max(MAX_SUBJECT).nullable().optional().describe('null or left out on a follow-up: sent in the same thread as the previous mail'),
    body: z.string().min(1).max(MAX_BODY),
    delay_days: z.number().int().min(0).max(MAX_DELAY_DAYS).describe('days after the previous mail; the first step 0 (sent when the lead is pushed)'),
    condition: z.enum(CONDITIONS).optional().describe("sent only while it holds; default: 'always' for the first step, 'no_reply' for follow-ups"),
  })
  .strict();

/**
 * The steps of update_sequence, checked as a whole: the first mail opens a thread (a subject, day 0, no condition
 * on an earlier mail), and every placeholder must be a name a lead can fill, so a typo is refused at the step and
 * field where it stands instead of leaving a gap in thousands of mails.
 */
export const StepsInput = z
  .array(StepInput)
  .min(1)
  .max(MAX_STEPS)
  .superRefine((steps, ctx) => {
    steps.forEach((s, i) => {
      const at = (field: string, message: string) => ctx.addIssue({ code: 'custom', path: [i, field], message: `step ${i + 1}: ${message}` });
      if (i === 0) {
        if (s.subject == null || s.subject.trim() === '') at('subject', 'the first mail needs a subject');
        if (s.delay_days !== 0) at('delay_days', 'the first mail goes out when the lead is pushed: delay_days must be 0');
        if (s.condition !== undefined && s.condition !== 'always') at('condition', "the first mail has no earlier mail to be replied to: condition must be 'always'");
      }
      if (s.subject != null && /[\r\n]/.test(s.subject)) at('subject', 'a subject is one line');
      if (s.body.trim() === '') at('body', 'the body is blank');
      for (const field of ['subject', 'body'] as const) {
        const text = s[field];
        if (text == null) continue;
        if (hasStrayBraces(text)) at(field, 'a {{ without its }} (or the other way round); placeholders read {{first_name}}');
        const unknown = placeholdersOf(text).filter((name) => !isKnownPlaceholder(name));
        if (unknown.length) at(field, `unknown placeholder ${unknown.map((n) => `{{${n}}}`).join(', ')} (${KNOWN})`);
      }
    });
  });

/** The steps as stored: defaults filled in, so the same sequence written twice compares equal. */
export function normaliseSteps(steps: z.infer<typeof StepsInput>): SequenceStep[] {
  return steps.map((s, i) => ({
    subject: s.subject == null || s.subject.trim() === '' ? null : s.subject.trim(),
    body: s.body,
    delay_days: s.delay_days,
    condition: s.condition ?? (i === 0 ? 'always' : 'no_reply'),
  }));
}

export const SequenceStepSchema = z.object({
  subject: z.string().nullable(),
  body: z.string(),
  delay_days: z.number().int(),
  condition: z.enum(CONDITIONS),
});

export const sameSteps = (a: readonly SequenceStep[], b: readonly SequenceStep[]) =>
  a.length === b.length && a.every((s, i) => s.subject === b[i].subject && s.body === b[i].body && s.delay_days === b[i].delay_days && s.condition === b[i].condition);
