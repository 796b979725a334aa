import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { confirmTokenArg, defineOperation, twoStepOutput } from '../../../lib/agency/define';
import { chooseDomains } from '../../../lib/infra/choose';
import { domainName } from '../../../lib/infra/step_params';
import { PlanSchema, StepSchema } from '../../../lib/plans/view';

const ChoosePreview = z.object({
  domains: z.array(z.object({ domain: z.string(), available: z.boolean(), price_cents: z.number().int().nullable(), problem: z.string().nullable() })),
  steps: z.array(z.object({ kind: z.string(), day: z.number().int(), params: z.record(z.string(), z.unknown()), summary: z.string() })).describe('the steps the confirm adds to the plan'),
  total_price_cents: z.number().int(),
  max_price_cents: z.number().int(),
  mailboxes_per_domain: z.number().int(),
  mailboxes: z.number().int(),
  workspace: z.object({ id: z.string(), name: z.string().nullable() }).nullable(),
  problems: z.array(z.string()).describe('why it cannot be confirmed (blocked_by dry_run_failed); one sentence each'),
  warnings: z.array(z.string()),
  simulated: z.literal(true).optional(),
});

export const chooseDomainsOp = defineOperation({
  name: 'choose_domains',
  method: 'POST',
  path: '/v1/agency/clients/{client_id}/domains/choose',
  scope: 'agency.write',
  toolset: 'infrastructure',
  studio: true,
  write: true,
  twoStep: true,
  openWorld: true,
  summary: "Put domains into the client's plan: buy, DNS and mailbox steps for each (two steps; nothing is bought before the plan is approved).",
  description:
    'Put 1..20 domains (from domain_options) into the client\'s plan as buy_domain (day 0), setup_dns (day 1) and create_mailboxes (day 2) steps (two steps). The preview checks each at the registrar (free, within max_price_cents, not owned); a failing one leaves blocked_by dry_run_failed. Nothing is bought until the plan is approved (approve_plan).',
  input: z
    .object({
      client_id: idArg('client'),
      domains: z
        .array(domainName)
        .min(1)
        .max(20)
        .refine((v) => new Set(v).size === v.length, { message: 'must not name a domain twice' }),
      mailboxes_per_domain: z.number().int().min(1).max(10).optional(),
      confirm_token: confirmTokenArg,
    })
    .strict(),
  output: twoStepOutput(ChoosePreview, z.object({ plan: PlanSchema, steps: z.array(StepSchema).describe('the steps added') })),
  run: async (call, input) => ({ body: await chooseDomains(call, input) }),
});
