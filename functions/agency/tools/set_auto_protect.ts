import { z } from 'zod';
import { boolArg, idArg } from '../../../lib/agency/args';
import { ClientSchema } from '../../../lib/agency/clients/view';
import { defineOperation } from '../../../lib/agency/define';
import { setAutoProtect } from '../../../lib/infra/auto_protect_set';

export const setAutoProtectOp = defineOperation({
  name: 'set_auto_protect',
  method: 'PUT',
  path: '/v1/agency/clients/{client_id}/auto-protect',
  scope: 'agency.write',
  toolset: 'infrastructure',
  studio: true,
  write: true,
  idempotent: true,
  summary: "Switch the client's auto-protect on or off (on by default).",
  description:
    'Switch the client\'s auto-protect on or off (default on). On: at the daily tick a failing ramping or active mailbox is parked and a ready reserve takes its campaigns; with no reserve a purchase is proposed into the plan (nothing bought). Off: failing mailboxes keep sending. The same value: updated false.',
  input: z.object({ client_id: idArg('client'), auto_protect: boolArg() }).strict(),
  output: z.object({ client: ClientSchema, updated: z.boolean() }),
  run: async (call, input) => ({ body: await setAutoProtect(call, input) }),
});
