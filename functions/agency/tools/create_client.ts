import { z } from 'zod';
import { boolArg } from '../../../lib/agency/args';
import { createClient } from '../../../lib/agency/clients/create_client';
import { ClientSchema } from '../../../lib/agency/clients/view';
import { defineOperation } from '../../../lib/agency/define';

export const createClientOp = defineOperation({
  name: 'create_client',
  method: 'POST',
  path: '/v1/agency/clients',
  scope: 'agency.write',
  toolset: 'account',
  write: true,
  // A repeat with the same name returns the same client (existed: true) and writes nothing.
  idempotent: true,
  summary: "Create a client. A client of the same name (any case) is returned instead with existed: true; the plan's client limit applies (403 client_limit_reached).",
  input: z
    .object({
      name: z.string().trim().min(1).max(200),
      auto_write: boolArg().optional(),
      auto_protect: boolArg().optional(),
    })
    .strict(),
  output: z.object({ client: ClientSchema, existed: z.boolean() }),
  run: async (call, input) => {
    const out = await createClient(call, input);
    return { status: out.existed ? 200 : 201, body: out };
  },
});
