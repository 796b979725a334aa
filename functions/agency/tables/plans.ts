import type { Operation } from '../../../lib/agency/operation';
import { approvePlanOp } from '../tools/approve_plan';
import { changePlanOp } from '../tools/change_plan';
import { dismissPlanOp } from '../tools/dismiss_plan';
import { getPlanOp } from '../tools/get_plan';
import { listPlansOp } from '../tools/list_plans';
import { pausePlanOp } from '../tools/pause_plan';
import { proposeActionOp } from '../tools/propose_action';
import { undoStepOp } from '../tools/undo_step';

/** Plans (Studio): the assistant proposes steps, a person or a key with agency.plans.approve approves, steps run on their day. */
export const PLAN_OPERATIONS = [listPlansOp, getPlanOp, proposeActionOp, approvePlanOp, changePlanOp, pausePlanOp, dismissPlanOp, undoStepOp] as unknown as Operation[];
