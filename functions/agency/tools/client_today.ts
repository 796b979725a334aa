import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { defineOperation } from '../../../lib/agency/define';
import { clientToday, TodaySchema } from '../../../lib/campaigns_studio/today';

export const clientTodayOp = defineOperation({
  name: 'client_today',
  method: 'GET',
  path: '/v1/agency/clients/{client_id}/today',
  scope: 'agency.read',
  toolset: 'engine',
  studio: true,
  write: false,
  summary: "A client's morning: what waits for whom, what runs today, and what is off track.",
  description:
    "Items name who acts (person, assistant, system) and the tool to use. waiting: plans to approve, the batch's next step, replies. runs_today: plan steps due today (organization's day). off_track: course at risk or off track, parked mailboxes, a stop verdict, a push held by the closed push gate, a failed push.",
  input: z.object({ client_id: idArg('client') }).strict(),
  output: z.object({ today: TodaySchema }),
  run: async (call, input) => ({ body: await clientToday(call, input) }),
});
