import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { confirmTokenArg, defineOperation, twoStepOutput } from '../../../lib/agency/define';
import { allocateBatch, DEFAULT_BATCH_SIZE } from '../../../lib/batches/allocate';
import { EXCLUSIONS } from '../../../lib/batches/compose';
import { BatchSchema } from '../../../lib/batches/view';
import { LeadFilterSchema } from '../../../lib/pool/filters';

const AllocatePreview = z.object({
  leads: z.number().int(),
  size: z.number().int(),
  available: z.number().int().describe('leads the filter could give'),
  excluded: z.object(Object.fromEntries(EXCLUSIONS.map((r) => [r, z.number().int()])) as Record<(typeof EXCLUSIONS)[number], z.ZodNumber>),
  sample: z.array(z.object({ id: z.string(), email: z.string(), name: z.string().nullable(), company: z.string().nullable(), title: z.string().nullable() })),
  segment_id: z.string().nullable(),
  filter: z.record(z.string(), z.unknown()),
});

export const allocateBatchOp = defineOperation({
  name: 'allocate_batch',
  method: 'POST',
  path: '/v1/agency/clients/{client_id}/batch/allocate',
  scope: 'agency.write',
  toolset: 'engine',
  studio: true,
  write: true,
  twoStep: true,
  summary: "Compose the client's next batch from its pool (two steps); one open batch per client.",
  description: [
    "Compose the client's next batch from its pool, oldest leads first (two steps). segment_id or filter (list_leads filters), not both; neither = whole pool.",
    'Leaves out leads without email, in a batch, rejected before, in the sequencer snapshot, contacted or never-mail (counted in excluded). 409 conflict while a batch is open.',
  ].join(' '),
  input: z
    .object({
      client_id: idArg('client'),
      segment_id: idArg('segment').optional(),
      filter: LeadFilterSchema.optional(),
      size: z.number().int().min(1).max(1000).default(DEFAULT_BATCH_SIZE).describe(`1..1000, default ${DEFAULT_BATCH_SIZE}`),
      confirm_token: confirmTokenArg,
    })
    .strict(),
  output: twoStepOutput(AllocatePreview, z.object({ batch: BatchSchema })),
  run: async (call, input) => ({ body: await allocateBatch(call, input) }),
});
