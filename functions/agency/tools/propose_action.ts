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
  description: [
    "Adds one step to the client's one open plan, creating it (waiting_approval) when there is none; the answer is the whole plan with its fresh dry run and the new step.",
    `kind is a step kind: ${kindList()}; params are that kind's (a wrong field is validation_error naming it). day is the offset in days from approval: the step runs at 08:00 in the organization's timezone on that day (day 0: at approval when 08:00 has passed).`,
    'Adding to an approved or paused plan makes it wait for approval again (steps not run yet come off the schedule; earlier approve tokens go stale). A dismissed plan stays dismissed and returns with the new step.',
    'note: why you propose it, kept in the plan log for the person who approves. title: the name of a new plan.',
  ].join(' '),
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
