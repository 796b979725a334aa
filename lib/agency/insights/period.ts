import { z } from 'zod';
import { ApiError } from '../../errors';

const DAY_MS = 86_400_000;
export const MAX_SPAN_DAYS = 366;

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const HAS_OFFSET = /(Z|[+-]\d{2}:?\d{2})$/i;

export const PeriodSchema = z.object({
  from: z.string().describe('start of the period, inclusive (ISO 8601)'),
  to: z.string().describe('end of the period, exclusive (ISO 8601)'),
});
export type Period = { from: Date; to: Date };

/**
 * Reads one end of a period. A date is a whole UTC day: `from` its start, `to` its end (the next day's start), so
 * `from=2025-05-01&to=2025-05-31` covers all of May. An instant needs an offset: without one it would be read in
 * the server's own time zone, which the caller cannot know.
 */
function endOf(name: 'from' | 'to', value: string): Date {
  // The platform's parser rolls 2025-02-30 over to March 2; a day that does not exist is a mistake to name.
  if (!realDay(value.slice(0, 10))) throw new ApiError('validation_error', `${name}: ${value.slice(0, 10)} is not a day of the calendar`);
  if (DATE_ONLY.test(value)) return new Date(Date.parse(`${value}T00:00:00Z`) + (name === 'to' ? DAY_MS : 0));
  if (!HAS_OFFSET.test(value)) throw new ApiError('validation_error', `${name}: give a time zone offset (Z or +02:00) with a date-time, or a date alone`);
  return new Date(value);
}

function realDay(ymd: string): boolean {
  const [y, m, d] = ymd.split('-').map(Number);
  const at = new Date(Date.UTC(y, m - 1, d));
  return at.getUTCFullYear() === y && at.getUTCMonth() === m - 1 && at.getUTCDate() === d;
}

/**
 * The half-open period [from, to) of a report: missing ends default to `now` and `defaultDays` before it. `to`
 * before `from`, or a span over a year, is a validation_error naming the argument.
 */
export function periodOf(input: { from?: string; to?: string }, now: Date, defaultDays: number): Period {
  const to = input.to !== undefined ? endOf('to', input.to) : now;
  const from = input.from !== undefined ? endOf('from', input.from) : new Date(to.getTime() - defaultDays * DAY_MS);
  // Blame the end the caller gave: `from` alone in the future is wrong about `from`, not about the default `to`.
  const blamed = input.to === undefined ? 'from' : 'to';
  const ends = `from is ${from.toISOString()}, to is ${to.toISOString()}${input.to === undefined ? ' (now)' : ''}`;
  if (to.getTime() < from.getTime()) throw new ApiError('validation_error', `${blamed}: to must not be before from (${ends})`);
  if (to.getTime() - from.getTime() > MAX_SPAN_DAYS * DAY_MS) {
    throw new ApiError('validation_error', `${blamed}: the period may span at most ${MAX_SPAN_DAYS} days (${ends})`);
  }
  return { from, to };
}

export const periodView = (p: Period) => ({ from: p.from.toISOString(), to: p.to.toISOString() });
