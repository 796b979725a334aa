import { z } from 'zod';

// Argument types that read the same from a JSON tool call and from a REST query string: a GET route's arguments
// arrive as text, a tool's as JSON values.

export const idArg = (what: string) => z.uuid({ message: `must be the id of a ${what} (a UUID)` });

/** A boolean from JSON, or `true` / `false` from a query string (never "any non-empty text is true"). */
export const boolArg = () => z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]);

/** A whole number from JSON or from a query string. */
export const intArg = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

/**
 * A date (`YYYY-MM-DD`, a whole UTC day) or an instant with its offset (`2026-11-24T09:00:00+01:00` or `…Z`). A
 * date-time without an offset would be read in the server's zone, and a day that does not exist (2025-02-30) would
 * roll over: both are refused.
 */
const isoDate = z.iso.date();
const isoInstant = z.iso.datetime({ offset: true });
export const instantArg = () =>
  z
    .string()
    .max(40)
    .refine((v) => isoDate.safeParse(v).success || isoInstant.safeParse(v).success, {
      message: 'must be a date (YYYY-MM-DD) or an ISO 8601 date-time with an offset (…Z or …+01:00)',
    });
