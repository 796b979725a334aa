import { z } from 'zod';

export const RUN_STATUSES = ['previewed', 'running', 'waiting_continue', 'stopped', 'done', 'failed'] as const;

/** What a lead of a round came to; only `found` writes an email and costs a credit. */
export const ROUND_OUTCOMES = [
  'found',
  'not_found',
  'invalid',
  'never_mail',
  'duplicate',
  'error',
  'rate_limited',
  'verify_failed',
  'no_credits',
  'skipped',
] as const;
export type RoundOutcome = (typeof ROUND_OUTCOMES)[number];

export const RunSchema = z.object({
  id: z.string(),
  status: z.enum(RUN_STATUSES),
  processed: z.number().int().describe('leads handed to the providers so far'),
  total: z.number().int().describe('leads of the run'),
  found: z.number().int().describe('emails found and written to leads'),
  credits: z.number().int().describe('credits charged by the run so far'),
  expires_at: z.string().describe('the confirm_token works for every round until then (or until the run is done)'),
});
export type RunView = z.infer<typeof RunSchema>;

export const RoundLeadSchema = z.object({
  lead_id: z.string(),
  email: z.string().nullable().describe('the email written to the lead (only when outcome is found)'),
  email_status: z.enum(['valid', 'risky', 'invalid']).nullable(),
  provider: z.string().nullable().describe('the provider that found the address'),
  outcome: z
    .enum(ROUND_OUTCOMES)
    .describe(
      'found: written, 1 credit; not_found: no provider found it; invalid: found but verified invalid; never_mail: on the never-mail list; duplicate: the address belongs to another lead of the pool; error / rate_limited / verify_failed: a provider failed, try in a later run; no_credits: found but the balance ran out; skipped: no longer waiting for an email',
    ),
});

export const RoundResultSchema = z.object({
  run: RunSchema,
  round: z.object({
    leads: z.array(RoundLeadSchema),
    credits: z.number().int(),
    retry_after_sec: z.number().int().optional().describe('a provider asked to slow down: wait this long before the next round'),
  }),
});
export type RoundResult = z.infer<typeof RoundResultSchema>;

export const LeadRefSchema = z.object({ lead_id: z.string(), name: z.string(), domain: z.string() });

export const SkipCountsSchema = z.object({
  missing_inputs: z.number().int().describe('no person name or no company domain/website: nothing to search, 0 credits'),
  not_waiting: z.number().int().describe('already has an email, or is not waiting for one'),
  in_other_run: z.number().int().describe('another open run of this client will search them'),
});

export const RunPreviewSchema = z.object({
  run: RunSchema.nullable().describe('the run this token opens; null when the preview cannot be confirmed'),
  providers: z.array(z.string()).describe('tried in this order; the first that finds wins'),
  simulated: z.boolean(),
  leads: z.array(LeadRefSchema).describe('the first 50 leads of the run'),
  more_leads: z.number().int(),
  skipped: SkipCountsSchema,
  skipped_leads: z.array(z.object({ lead_id: z.string(), reason: z.enum(['missing_inputs', 'not_waiting', 'in_other_run']) })).describe('the named lead_ids left out, and why'),
  beyond_run: z.number().int().describe('eligible leads past the 1,000 a run covers: they wait for the next run'),
  max_credits: z.number().int().describe('1 credit per email found and written: at most one per lead'),
  round_size: z.number().int(),
  rounds: z.number().int(),
  balance: z.number().int(),
});
export type RunPreview = z.infer<typeof RunPreviewSchema>;

export const EstimateSchema = z.object({
  estimate: z.object({
    leads: z.number().int().describe('leads considered (the named lead_ids, or every lead waiting for an email)'),
    eligible: z.number().int().describe('leads with a person name and a company domain or website'),
    skipped: SkipCountsSchema,
    max_credits: z.number().int().describe('the ceiling: 1 credit per email found, so at most one per eligible lead'),
    rounds: z.number().int().describe('run_find_emails rounds of 25 needed'),
    balance: z.number().int(),
    enough_credits: z.boolean(),
    providers: z.array(z.string()),
    simulated: z.boolean(),
  }),
});
export type Estimate = z.infer<typeof EstimateSchema>;
