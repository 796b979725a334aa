import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { runTwoStep } from '../../../lib/agency/confirm';
import { confirmTokenArg, defineOperation, twoStepOutput } from '../../../lib/agency/define';
import { undoStep } from '../../../lib/plans/undo';
import { PlanSchema, StepSchema } from '../../../lib/plans/view';

export const undoStepOp = defineOperation({
  name: 'undo_step',
  method: 'POST',
  path: '/v1/agency/plans/{plan_id}/steps/{step_id}/undo',
  scope: 'agency.write',
  toolset: 'plans',
  studio: true,
  write: true,
  twoStep: true,
  summary: 'Undo a step that ran (two steps); purchases and steps that cannot be undone answer not_undoable.',
  description: [
    'Only a step with status done whose kind can be undone (set_auto_write puts the previous value back, recipe_go_live the previous live version, note nothing). A purchase (buys) or a step that cannot be undone (find_emails, run_formula: paid work) is not_undoable; a step that has not run or was undone already is conflict.',
    'The first call shows the step and a confirm_token; repeat with the token to undo. The step becomes undone.',
  ].join(' '),
  input: z.object({ plan_id: idArg('plan'), step_id: idArg('plan step'), confirm_token: confirmTokenArg }).strict(),
  output: twoStepOutput(z.object({ plan_id: z.string(), step: StepSchema, undoes: z.string() }), z.object({ plan: PlanSchema, step: StepSchema })),
  run: async (call, input) => {
    const out = await runTwoStep(call, undoStep, input);
    return { body: out.confirmed ? out.result : out.answer };
  },
});
