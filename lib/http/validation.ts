import type { ZodError } from 'zod';
import { ApiError } from '../errors';

/** The message names the field (`limit`, `body.previous_messages.3.role`) and what is wrong with it. */
export function validationError(error: ZodError, target: string): ApiError {
  const issue = error.issues[0];
  const path = issue?.path.map(String).join('.') ?? '';
  const where = target === 'json' ? path || 'body' : path || target;
  const what = issue?.code === 'unrecognized_keys' ? `unknown field(s) ${issue.keys.join(', ')}` : issue?.message ?? 'invalid';
  return new ApiError('validation_error', `${where}: ${what}`);
}
