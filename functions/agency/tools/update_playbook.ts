import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { updatePlaybook } from '../../../lib/agency/clients/update_playbook';
import { ClientSchema } from '../../../lib/agency/clients/view';
import { runTwoStep } from '../../../lib/agency/confirm';
import { confirmTokenArg, defineOperation, twoStepOutput } from '../../../lib/agency/define';

const Playbook = z.object({ instructions: z.string(), tone: z.string().nullable(), signature: z.string().nullable(), rules: z.array(z.string()) });

export const updatePlaybookOp = defineOperation({
  name: 'update_playbook',
  method: 'PUT',
  path: '/v1/agency/clients/{client_id}/playbook',
  scope: 'agency.write',
  toolset: 'account',
  write: true,
  twoStep: true,
  summary:
    "Replace a client's reply playbook with a new version (two steps: the first call shows the current and proposed playbook and a confirm_token; repeat it with the token to save). Every version is kept.",
  input: z
    .object({
      client_id: idArg('client'),
      instructions: z.string().trim().min(1).max(20_000),
      tone: z.string().max(500).nullable().optional(),
      signature: z.string().max(1000).nullable().optional(),
      rules: z.array(z.string().max(1000)).max(50).optional(),
      confirm_token: confirmTokenArg,
    })
    .strict(),
  output: twoStepOutput(
    z.object({
      client_id: z.string(),
      current_version: z.number().int(),
      next_version: z.number().int(),
      current: Playbook.nullable(),
      proposed: Playbook,
      changed_fields: z.array(z.string()),
    }),
    z.object({ client: ClientSchema, playbook_version: z.number().int() }),
  ),
  run: async (call, input) => {
    const out = await runTwoStep(call, updatePlaybook, input);
    return { body: out.confirmed ? out.result : out.answer };
  },
});
