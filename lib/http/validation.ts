import type { Context } from 'hono';
import type { ZodError } from 'zod';
import { ApiError, type ErrorDetail } from '../errors';

/** A body with thousands of bad items must not answer with thousands of details. */
export const MAX_ERROR_DETAILS = 50;

const REPEATED = 'given more than once';

/**
 * Every problem of a request that failed its schema, each named by its path (`limit`,
 * `previous_messages.3.role`, `body` for the body as a whole); the message names the first, as `path: problem`.
 * A query parameter given twice (`?limit=10&limit=20`) reaches the schema as an array: that is said as such,
 * not as whatever the schema says about an array.
 */
export function validationError(error: ZodError, target: string, input?: unknown): ApiError {
  const repeated = target === 'query' ? repeatedKeys(input) : new Set<string>();
  const details: ErrorDetail[] = [];
  const saidRepeated = new Set<string>();
  for (const issue of error.issues) {
    const head = issue.path[0];
    if (typeof head === 'string' && repeated.has(head)) {
      if (!saidRepeated.has(head)) details.push({ path: head, message: REPEATED });
      saidRepeated.add(head);
      continue;
    }
    const path = issue.path.map(String).join('.');
    const where = target === 'json' ? path || 'body' : path || target;
    const what = issue.code === 'unrecognized_keys' ? `unknown field(s) ${issue.keys.join(', ')}` : issue.message;
    details.push({ path: where, message: what || 'invalid' });
  }
  if (details.length === 0) details.push({ path: target === 'json' ? 'body' : target, message: 'invalid' });
  const [first] = details;
  return new ApiError('validation_error', `${first.path}: ${first.message}`, { details: details.slice(0, MAX_ERROR_DETAILS) });
}

/**
 * A repeated parameter that the schema let through (a coercion that accepts an array) is refused all the same:
 * no parameter of this API takes a list by repetition, and silently using one of the values is a guess.
 */
export function refuseRepeatedQuery(c: Context, parsed: unknown) {
  if (!parsed || typeof parsed !== 'object') return;
  const values = parsed as Record<string, unknown>;
  const repeated = Object.entries(c.req.queries())
    .filter(([name, given]) => given.length > 1 && Object.hasOwn(values, name) && !Array.isArray(values[name]))
    .map(([name]) => ({ path: name, message: REPEATED }));
  if (repeated.length > 0) throw new ApiError('validation_error', `${repeated[0].path}: ${REPEATED}`, { details: repeated });
}

// Hono hands the query to the schema as { name: value } and { name: [value, value] } when a name repeats.
function repeatedKeys(input: unknown): Set<string> {
  if (!input || typeof input !== 'object') return new Set();
  return new Set(Object.entries(input as Record<string, unknown>).filter(([, v]) => Array.isArray(v)).map(([k]) => k));
}
