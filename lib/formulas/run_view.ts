// A formula run as get_run, stop_run and run_formula show it.
import { z } from 'zod';
import type { enrichRuns } from '../../schema';

export type RunRow = typeof enrichRuns.$inferSelect;

export const RUN_STATUSES = ['previewed', 'running', 'waiting_continue', 'stopped', 'done', 'failed'] as const;

export const RunSchema = z.object({
  id: z.string(),
  kind: z.enum(['formula', 'signals']),
  client_id: z.string(),
  recipe_id: z.string().nullable(),
  column_key: z.string().nullable().describe('the one column the run writes; null = every column step of the recipe'),
  formula_ref: z.string().nullable(),
  status: z.enum(RUN_STATUSES).describe('running: rounds are queued; waiting_continue: paused (credits ran out), POST continue: true resumes; stopped, done and failed are final'),
  only_empty: z.boolean().describe('true: cells that hold a value are left as they are (overwrite: false)'),
  total: z.number().int().describe('leads in the run'),
  processed: z.number().int(),
  written: z.number().int().describe('cells written'),
  skipped: z.number().int().describe('leads skipped for missing inputs (0 credits)'),
  credits: z.number().int().describe('credits charged so far'),
  credit_cap: z.number().int().describe('the credit ceiling the preview showed: the run never charges more'),
  last_error: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type RunView = z.infer<typeof RunSchema>;

export const runView = (r: RunRow): RunView => ({
  id: r.id,
  kind: r.kind,
  client_id: r.clientId,
  recipe_id: r.recipeId,
  column_key: r.columnKey,
  formula_ref: r.formulaRef,
  status: r.status,
  only_empty: r.onlyEmpty,
  total: r.total,
  processed: r.processed,
  written: r.written,
  skipped: r.skipped,
  credits: r.credits,
  credit_cap: r.creditCap,
  last_error: r.lastError,
  created_at: r.createdAt.toISOString(),
  updated_at: r.updatedAt.toISOString(),
});

export const isFinal = (status: RunRow['status']) => status === 'stopped' || status === 'done' || status === 'failed';
