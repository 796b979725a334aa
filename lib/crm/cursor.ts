import { z } from 'zod';
import { ApiError } from '../errors';

// The CRM list's opaque cursor: the keyset position (last lead id examined) and the filters of the run it
// belongs to, so following `next_cursor` alone continues the same listing. base64url JSON; not a secret (the
// tenant filter always comes from the key), but strictly parsed.
export const ListFilters = z.strictObject({
  classification: z.array(z.string()).optional(),
  phase: z.array(z.string()).optional(),
  has_next_action: z.boolean().optional(),
  updated_since: z.string().optional(),
});
export type ListFilters = z.infer<typeof ListFilters>;

const Cursor = z.strictObject({ v: z.literal(1), after: z.uuid(), filters: ListFilters });

// Web APIs only (no Buffer): the same code runs on Workers.
const toBase64Url = (text: string) => btoa(String.fromCharCode(...new TextEncoder().encode(text))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const fromBase64Url = (b64: string) => new TextDecoder().decode(Uint8Array.from(atob(b64.replace(/-/g, '+').replace(/_/g, '/')), (ch) => ch.charCodeAt(0)));

export function encodeCursor(after: string, filters: ListFilters): string {
  return toBase64Url(JSON.stringify({ v: 1, after, filters }));
}

export function decodeCursor(cursor: string): { after: string; filters: ListFilters } {
  try {
    const parsed = Cursor.parse(JSON.parse(fromBase64Url(cursor)));
    return { after: parsed.after, filters: parsed.filters };
  } catch {
    throw new ApiError('validation_error', 'cursor: not a cursor this API issued (pass next_cursor unchanged)');
  }
}

/** Filters as a comparable value: sorted lists, absent keys dropped. */
export function normalizeFilters(f: ListFilters): ListFilters {
  const out: ListFilters = {};
  if (f.classification?.length) out.classification = [...new Set(f.classification)].sort();
  if (f.phase?.length) out.phase = [...new Set(f.phase)].sort();
  if (f.has_next_action !== undefined) out.has_next_action = f.has_next_action;
  if (f.updated_since !== undefined) out.updated_since = new Date(f.updated_since).toISOString();
  return out;
}

export const sameFilters = (a: ListFilters, b: ListFilters) => JSON.stringify(normalizeFilters(a)) === JSON.stringify(normalizeFilters(b));
