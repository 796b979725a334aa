import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { defineOperation } from '../../../lib/agency/define';
import { proposeStep } from '../../../lib/plans/propose';
import { stepKinds } from '../../../lib/plans/registry';
import { whoOf } from '../../../lib/plans/rows';
import { PlanSchema, StepSchema } from '../../../lib/plans/view';

const kindList = () =>
  stepKinds()
    .map((k) => `${k.kind}${k.buys ? ' (buys)' : ''}${k.undoable ? '' : ' (not undoable)'}`)
    .join(', ');

export const proposeActionOp = defineOperation({
  name: 'propose_action',
  method: 'POST',
  path: '/v1/agency/clients/{client_id}/plan/steps',
  scope: 'agency.write',
  toolset: 'plans',
  studio: true,
  write: true,
  summary: "Propose a step for a client's plan; a person (or a key with agency.plans.approve) approves the plan before anything runs.",
  description:
    'Add one step to the client\'s open plan (created waiting_approval if none); answers the plan with a fresh dry run. kind: buy_domain, create_mailboxes, find_emails, note, recipe_go_live, run_formula, set_auto_write, setup_dns; params are the kind\'s. day: days after approval (runs 08:00 org time). Adding to an approved plan makes it wait for approval again.',
  input: z
    .object({
      client_id: idArg('client'),
      kind: z.string().trim().min(1).max(64),
      params: z.record(z.string(), z.unknown()).optional(),
      day: z.number().int().min(0).max(365).optional(),
      note: z.string().trim().min(1).max(2000).optional(),
      title: z.string().trim().min(1).max(200).optional(),
    })
    .strict(),
  output: z.object({ plan: PlanSchema, step: StepSchema, created: z.boolean().describe('true when this step started a new plan') }),
  run: async (call, input) => ({ status: 201, body: await proposeStep(whoOf(call), input) }),
});
