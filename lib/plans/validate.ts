import type { z } from 'zod';
import { ApiError } from '../errors';
import { stepKind, stepKinds, type StepKind } from './registry';

/** A proposed step checked against the registry: 400 naming the unknown kind or the failing field. */
export function validateStep(kind: string, params: unknown, where = ''): { kind: StepKind; params: Record<string, unknown>; credits: number } {
  const k = stepKind(kind);
  if (!k) {
    throw new ApiError('validation_error', `${where}kind: unknown step kind ${JSON.stringify(kind)}; the kinds are ${stepKinds().map((s) => s.kind).join(', ')}`);
  }
  const parsed = k.params.safeParse(params ?? {});
  if (!parsed.success) {
    const issue = (parsed.error as z.ZodError).issues[0];
    const path = ['params', ...issue.path.map(String)].join('.');
    throw new ApiError('validation_error', `${where}${path}: ${issue.message} (step kind ${k.kind})`, {
      details: parsed.error.issues.map((i) => ({ path: `${where}${['params', ...i.path.map(String)].join('.')}`, message: i.message })),
    });
  }
  const data = parsed.data as Record<string, unknown>;
  const credits = k.credits(data);
  if (!Number.isInteger(credits) || credits < 0) throw new Error(`step kind ${k.kind}: credits must be a whole number >= 0, got ${credits}`);
  return { kind: k, params: data, credits };
}
