import { z } from 'zod';
import type { StepKind } from '../step_kind';

const Params = z
  .object({
    text: z.string().trim().min(1).max(2000).describe('What a person should do or check on that day.'),
  })
  .strict();
type Params = z.infer<typeof Params>;

/**
 * A reminder for a person: it changes nothing outside, so it is free and undoable. Catch-up plans use it when the
 * fix needs a human (e.g. "book more calls"), and it gives every plan something real to run and log.
 */
export const noteStep: StepKind<Params> = {
  kind: 'note',
  summary: (p) => `Reminder: ${p.text.length > 80 ? `${p.text.slice(0, 77)}...` : p.text}`,
  params: Params,
  buys: false,
  undoable: true,
  credits: () => 0,
  dryRun: async () => [],
  run: async (_ctx, p) => ({ noted: p.text }),
  undo: async () => {},
};
