import { z } from 'zod';
import { AccountSchema, getAccount } from '../../../lib/agency/account/get_account';
import { defineOperation } from '../../../lib/agency/define';

export const getAccountOp = defineOperation({
  name: 'get_account',
  method: 'GET',
  path: '/v1/agency/account',
  scope: 'agency.read',
  toolset: 'account',
  write: false,
  summary: 'The agency account: organization, plan with client limit and usage, credit balance, connected sending accounts (never keys) and the adapter of each port.',
  input: z.object({}).strict(),
  output: AccountSchema,
  run: async (call) => ({ body: await getAccount(call) }),
});
