import type { Operation } from '../../../lib/agency/operation';
import { activateLearnedRuleOp } from '../tools/activate_learned_rule';
import { learnedRulesOp } from '../tools/learned_rules';
import { startWritingOp } from '../tools/start_writing';

/** Writing a batch (paid) and the rules learned from review edits (Studio, issue 18). */
export const WRITING_OPERATIONS = [startWritingOp, learnedRulesOp, activateLearnedRuleOp] as unknown as Operation[];
