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
  description: [
    'domains: 1..20 distinct names (from domain_options). mailboxes_per_domain: 1..10, default the rule\'s.',
    'Without confirm_token: a preview that checks each domain at the registrar (free, at or under the rule\'s max_price_cents, not owned or already planned by the organization), the steps it would add and the total price; a domain that fails leaves confirm_token null with blocked_by dry_run_failed and a problem naming it. No workspace chosen yet is a warning, not a refusal.',
    'With the token: adds per domain buy_domain (day 0), setup_dns (day 1) and create_mailboxes (day 2) to the client\'s one open plan (creating it); an approved plan waits for approval again. It buys nothing: approve the plan (approve_plan) and each step runs on its day; the step id is the registrar order reference, so a step never buys twice.',
  ].join(' '),
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
