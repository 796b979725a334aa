import type { z } from 'zod';
import type { Services } from '../services';

/** What a step's run, dry run and undo get: the step id is the idempotency reference of anything it does outside. */
export type StepContext = { services: Services; orgId: string; clientId: string; stepId: string; planId: string; now: Date; actor: string };

/**
 * One kind of plan step. The flags are copied onto the step row when it is proposed, so a plan shows what it buys
 * and what can be undone even if the kind changes later.
 */
export type StepKind<P = Record<string, unknown>> = {
  kind: string;
  summary: (params: P) => string;
  /** Validated at propose time: a failure is a 400 naming the field. */
  params: z.ZodType<P>;
  /** Spends money outside (domains, mailboxes): never approved by scope free_steps, never undoable. */
  buys: boolean;
  undoable: boolean;
  /** Needs a person's approval (admin route) even when a key holds agency.plans.approve. */
  needsPerson?: boolean;
  credits: (params: P) => number;
  /** Problems, one sentence each; [] = fine. Reads only. */
  dryRun: (ctx: StepContext, params: P) => Promise<string[]>;
  run: (ctx: StepContext, params: P) => Promise<Record<string, unknown>>;
  undo?: (ctx: StepContext, params: P, result: Record<string, unknown>) => Promise<void>;
};

/**
 * Thrown by a kind's run that cannot act yet and must not count as a failure (the push gate is closed): the step
 * goes back to `scheduled` at `retryAt` with `reason` as its error, its attempt is not counted, and it runs again
 * then. A plan paused or changed meanwhile takes it off the schedule as usual.
 */
export class StepDeferred extends Error {
  constructor(
    readonly reason: string,
    readonly retryAt: Date,
  ) {
    super(reason);
  }
}
