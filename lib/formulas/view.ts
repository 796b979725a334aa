import { z } from 'zod';
import type { FormulaDef } from './types';

export const FormulaSchema = z.object({
  id: z.string().describe('what a recipe step names in `formula`: the shared key (e.g. seniority_from_title) or your formula\'s id'),
  library: z.enum(['shared', 'agency']),
  name: z.string(),
  description: z.string(),
  goals: z.array(z.string()),
  kind: z.enum(['expression', 'lookup', 'question']).describe('expression: over the lead\'s fields; lookup: through the enrichment port; question: asked to the AI'),
  spec: z.record(z.string(), z.unknown()).describe('expression: { expression }; lookup: { field, … }; question: { question }'),
  inputs: z.array(z.string()).describe('lead fields the formula needs: a lead missing one is skipped for 0 credits'),
  output_type: z.enum(['text', 'number', 'boolean', 'url']),
  credit_cost: z.number().int().describe('credits per cell written (empty results cost nothing)'),
  publish_status: z.enum(['private', 'requested']).optional().describe('your formulas only: requested = waiting for review into the shared library'),
  author_opt_in: z.boolean().optional(),
});
export type FormulaView = z.infer<typeof FormulaSchema>;

export const formulaView = (d: FormulaDef, own?: { publishStatus: 'private' | 'requested'; authorOptIn: boolean }): FormulaView => ({
  id: d.ref,
  library: d.library,
  name: d.name,
  description: d.description,
  goals: d.goals,
  kind: d.kind,
  spec: d.spec,
  inputs: d.inputs,
  output_type: d.output_type,
  credit_cost: d.credit_cost,
  ...(own && { publish_status: own.publishStatus, author_opt_in: own.authorOptIn }),
});
