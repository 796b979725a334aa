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
  description:
    'Undo a done step (two steps): set_auto_write restores the previous value, recipe_go_live the previous live version, note nothing. Purchases and paid work (find_emails, run_formula) are not_undoable; a step not run or already undone is conflict. The step becomes undone.',
  input: z.object({ plan_id: idArg('plan'), step_id: idArg('plan step'), confirm_token: confirmTokenArg }).strict(),
  output: twoStepOutput(z.object({ plan_id: z.string(), step: StepSchema, undoes: z.string() }), z.object({ plan: PlanSchema, step: StepSchema })),
  run: async (call, input) => {
    const out = await runTwoStep(call, undoStep, input);
    return { body: out.confirmed ? out.result : out.answer };
  },
});
