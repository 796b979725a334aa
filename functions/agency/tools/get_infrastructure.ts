import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { defineOperation } from '../../../lib/agency/define';
import { getInfrastructure, SnapshotAnswerSchema } from '../../../lib/infra/snapshot';

export const getInfrastructureOp = defineOperation({
  name: 'get_infrastructure',
  method: 'GET',
  path: '/v1/agency/clients/{client_id}/infrastructure',
  scope: 'agency.read',
  toolset: 'infrastructure',
  studio: true,
  write: false,
  summary: "The client's sending infrastructure at a glance: domains, mailboxes by status, today's capacity, failing mailboxes, ready reserves and waiting purchase steps.",
  description: [
    'Answers from the infrastructure snapshot, refreshed every 10 minutes from our own records (no provider is asked); snapshot.age_seconds says how old it is.',
    "A client's first call builds the snapshot from the records on the spot (age 0). For one mailbox's day, cap and health use get_mailbox_lifecycle.",
  ].join(' '),
  input: z.object({ client_id: idArg('client') }).strict(),
  output: SnapshotAnswerSchema,
  run: async (call, input) => ({ body: await getInfrastructure(call.services.db, call.auth.orgId, input.client_id, call.now) }),
});
