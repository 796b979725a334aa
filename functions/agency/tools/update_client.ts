import { z } from 'zod';
import { boolArg, idArg } from '../../../lib/agency/args';
import { updateClient } from '../../../lib/agency/clients/update_client';
import { ClientSchema } from '../../../lib/agency/clients/view';
import { defineOperation } from '../../../lib/agency/define';
import { ApiError } from '../../../lib/errors';

export const updateClientOp = defineOperation({
  name: 'update_client',
  method: 'PATCH',
  path: '/v1/agency/clients/{client_id}',
  scope: 'agency.write',
  toolset: 'account',
  write: true,
  idempotent: true,
  summary:
    "Change a client's name, auto_write or auto_protect. Pass the updated_at you last read as if_updated_at: if the client changed since, nothing is written and 409 conflict carries the current client.",
  input: z
    .object({
      client_id: idArg('client'),
      name: z.string().trim().min(1).max(200).optional(),
      auto_write: boolArg().optional(),
      auto_protect: boolArg().optional(),
      if_updated_at: z.iso.datetime({ offset: true, message: 'must be the client\'s updated_at as read (ISO 8601)' }).optional(),
    })
    .strict(),
  output: z.object({ client: ClientSchema, updated: z.boolean() }),
  run: async (call, input) => {
    if (input.name === undefined && input.auto_write === undefined && input.auto_protect === undefined) {
      throw new ApiError('validation_error', 'name: give at least one of name, auto_write, auto_protect');
    }
    return { body: await updateClient(call, input) };
  },
});
