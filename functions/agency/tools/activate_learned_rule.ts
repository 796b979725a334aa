import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { defineOperation } from '../../../lib/agency/define';
import { activateLearnedRule } from '../../../lib/learning/activate';
import { LearnedRuleSchema } from '../../../lib/learning/view';

export const activateLearnedRuleOp = defineOperation({
  name: 'activate_learned_rule',
  method: 'POST',
  path: '/v1/agency/clients/{client_id}/learned-rules/activate',
  scope: 'agency.write',
  toolset: 'engine',
  studio: true,
  write: true,
  idempotent: true,
  summary: 'Activate a suggested learned rule so the next start_writing applies it; an active rule stays as it is.',
  description:
    'Activate a suggested learned rule so the next start_writing applies it and the sentences it changes cite it (source kind rule). One call, no preview: it costs nothing and changes no mail already written. Activating an active rule answers it unchanged (changed: false).',
  input: z.object({ client_id: idArg('client'), rule_id: idArg('learned rule') }).strict(),
  output: z.object({ rule: LearnedRuleSchema, changed: z.boolean() }),
  run: async (call, input) => ({ body: await activateLearnedRule(call, input) }),
});
