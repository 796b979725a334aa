import { z } from 'zod';
import type { Operation } from './operation';

type Required = 'name' | 'method' | 'path' | 'scope' | 'toolset' | 'write' | 'summary' | 'input' | 'output' | 'run';
type Defaults = Omit<Operation, Required | 'pathParams'>;

/** Path parameters in path order: `/clients/{client_id}/playbook` → ['client_id']. */
export const pathParamsOf = (path: string) => [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);

/** One operation with the flags it does not state at their usual values (not Studio, one step, free, in-house). */
export function defineOperation<I extends z.ZodObject, O extends z.ZodType>(
  op: Pick<Operation<I, O>, Required> & Partial<Omit<Defaults, 'input' | 'output' | 'run'>>,
): Operation<I, O> {
  const path = op.path;
  for (const p of pathParamsOf(path)) if (!(p in op.input.shape)) throw new Error(`${op.name}: path parameter ${p} is not among its arguments`);
  return {
    studio: false,
    twoStep: false,
    paid: false,
    openWorld: false,
    idempotent: false,
    rest: 'agency',
    restOnly: false,
    description: op.summary,
    ...op,
    pathParams: pathParamsOf(path),
  } as Operation<I, O>;
}

/** The argument every two-step tool takes on its second call. */
export const confirmTokenArg = z
  .string()
  .min(1)
  .max(200)
  .describe('from the preview call; leave out to preview')
  .optional();

/** What the first call of a two-step tool answers (agency-operator.md §3). */
export function previewAnswer<P extends z.ZodType>(preview: P) {
  return z.object({
    preview,
    confirm_token: z.string().nullable(),
    expires_at: z.string().nullable(),
    credits: z.number().int(),
    blocked_by: z.string().optional(),
  });
}

/** A two-step tool answers either its preview or, confirmed, its result. */
export const twoStepOutput = <P extends z.ZodType, R extends z.ZodObject>(preview: P, result: R) => z.union([previewAnswer(preview), result]);
