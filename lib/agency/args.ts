import { z } from 'zod';

// Argument types that read the same from a JSON tool call and from a REST query string: a GET route's arguments
// arrive as text, a tool's as JSON values.

export const idArg = (what: string) => z.uuid({ message: `must be the id of a ${what} (a UUID)` });

/** A boolean from JSON, or `true` / `false` from a query string (never "any non-empty text is true"). */
export const boolArg = () => z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]);

/** A whole number from JSON or from a query string. */
export const intArg = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

/** A date (`YYYY-MM-DD`) or an instant (ISO 8601 with an offset); read as the start of that UTC day for dates. */
export const instantArg = () =>
  z
    .string()
    .max(40)
    .refine((v) => /^\d{4}-\d{2}-\d{2}(T.+)?$/.test(v) && !Number.isNaN(Date.parse(v)), { message: 'must be a date (YYYY-MM-DD) or an ISO 8601 date-time' });
