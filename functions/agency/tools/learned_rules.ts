import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { defineOperation } from '../../../lib/agency/define';
import { LearnedRuleSchema, listLearnedRules } from '../../../lib/learning/view';

export const learnedRulesOp = defineOperation({
  name: 'learned_rules',
  method: 'GET',
  path: '/v1/agency/clients/{client_id}/learned-rules',
  scope: 'agency.read',
  toolset: 'engine',
  studio: true,
  write: false,
  summary: "List the writing rules learned from a client's review edits, with their evidence.",
  description:
    "List the writing rules learned from a client's review edits, with their evidence (the edits they came from). A suggested rule is not used until activate_learned_rule; active rules are applied by start_writing and cited by the sentences they change.",
  input: z.object({ client_id: idArg('client'), status: z.enum(['suggested', 'active']).optional() }).strict(),
  output: z.object({ rules: z.array(LearnedRuleSchema) }),
  run: async (call, input) => ({ body: await listLearnedRules(call, input) }),
});
