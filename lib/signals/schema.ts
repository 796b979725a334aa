import { z } from 'zod';
import { SIGNAL_KINDS } from './kinds';

export const RUN_STATUSES = ['previewed', 'running', 'waiting_continue', 'stopped', 'done', 'failed'] as const;

export const StoredSignalSchema = z.object({
  id: z.string(),
  kind: z.enum(SIGNAL_KINDS),
  title: z.string(),
  happened_on: z.string().nullable().describe('YYYY-MM-DD when the provider dates it'),
  source: z.string().describe('the enrichment provider (sim for the simulation)'),
  detail: z.record(z.string(), z.unknown()),
  found_at: z.string(),
  run_id: z.string().nullable(),
  simulated: z.boolean(),
});
export type StoredSignal = z.infer<typeof StoredSignalSchema>;

export const LeadSignalsSchema = z.object({
  lead_id: z.string(),
  company: z.string().nullable(),
  domain: z.string().nullable(),
  signals: z.array(StoredSignalSchema).describe('newest first'),
});

export const ReadSignalsSchema = z.object({
  leads: z.array(LeadSignalsSchema).describe('leads that have stored signals (of the asked kinds), newest signal first'),
  next_offset: z.number().int().nullable().describe('pass as offset for the next page; null on the last page'),
});

export const SignalsRunSchema = z.object({
  id: z.string(),
  kind: z.literal('signals'),
  client_id: z.string(),
  status: z.enum(RUN_STATUSES),
  signal_kinds: z.array(z.enum(SIGNAL_KINDS)),
  total: z.number().int().describe('leads of the run'),
  processed: z.number().int().describe('leads looked up so far'),
  written: z.number().int().describe('leads with at least one signal found (each 1 credit, unless already paid today)'),
  skipped: z.number().int().describe('leads left out when their turn came (no domain any more, removed)'),
  credits: z.number().int().describe('credits charged by the run so far'),
  credit_cap: z.number().int().describe('the most the run can charge (the preview ceiling)'),
  last_error: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type SignalsRunView = z.infer<typeof SignalsRunSchema>;

const SkipCountsSchema = z.object({
  no_domain: z.number().int().describe('no company domain or website: nothing to look up, 0 credits'),
  in_other_run: z.number().int().describe('another open signals run of this client covers them'),
});

export const SignalsEstimateSchema = z.object({
  estimate: z.object({
    leads: z.number().int().describe('leads considered (the named lead_ids, or every lead of the pool)'),
    with_domain: z.number().int(),
    skipped: SkipCountsSchema,
    already_paid_today: z.number().int().describe('leads already charged today for these kinds: looked up again for free'),
    max_credits: z.number().int().describe('the upper bound: 1 credit per lead with a signal found, so at most one per lead with a domain not paid today'),
    kinds: z.array(z.enum(SIGNAL_KINDS)),
    balance: z.number().int(),
    enough_credits: z.boolean(),
    provider: z.string(),
    simulated: z.boolean(),
  }),
});
export type SignalsEstimate = z.infer<typeof SignalsEstimateSchema>;

export const SignalsRunPreviewSchema = z.object({
  leads: z.array(z.object({ lead_id: z.string(), company: z.string().nullable(), domain: z.string() })).describe('the first 50 leads of the run'),
  more_leads: z.number().int(),
  skipped: SkipCountsSchema,
  skipped_leads: z.array(z.object({ lead_id: z.string(), reason: z.enum(['no_domain', 'in_other_run']) })).describe('the named lead_ids left out, and why'),
  beyond_run: z.number().int().describe('leads past the 1,000 a run covers: they wait for the next run'),
  kinds: z.array(z.enum(SIGNAL_KINDS)),
  already_paid_today: z.number().int(),
  max_credits: z.number().int().describe('the ceiling of the charge'),
  round_size: z.number().int(),
  rounds: z.number().int(),
  balance: z.number().int(),
  provider: z.string(),
  simulated: z.boolean(),
});
export type SignalsRunPreview = z.infer<typeof SignalsRunPreviewSchema>;
