// The bridge's body: one row as a JSON object, or `{ rows: [ ... ] }` (agency spec §4), read as text under the
// 256 KB cap before it is parsed, at most 100 rows (§8).
import { ApiError } from '../errors';
import { jsonHasNul } from '../http/nul_guard';

export const MAX_BRIDGE_BODY_BYTES = 256 * 1024;
export const MAX_BRIDGE_ROWS = 100;

export type ParsedBridgeBody = {
  /** Rows in the body, usable or not. */
  received: number;
  /** The rows that are non-empty objects, with their position in the body. */
  rows: { at: number; row: Record<string, unknown> }[];
  /** Why the other rows cannot be used. */
  problems: string[];
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const hasValue = (v: unknown) => v !== null && v !== undefined && !(typeof v === 'string' && v.trim() === '');

export function parseBridgeBody(raw: string): ParsedBridgeBody {
  if (new TextEncoder().encode(raw).length > MAX_BRIDGE_BODY_BYTES) throw new ApiError('payload_too_large', `request body exceeds ${MAX_BRIDGE_BODY_BYTES / 1024} KB`);
  if (jsonHasNul(raw)) throw new ApiError('validation_error', 'body: NUL characters (\\u0000) are not allowed in strings');
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    throw new ApiError('validation_error', 'body: not valid JSON');
  }
  if (!isObject(body)) throw new ApiError('validation_error', 'body: one row as a JSON object, or { "rows": [ ... ] }');
  // A table with a column named "rows" still sends one row: only an array makes it the batch form.
  const list: unknown[] = Array.isArray(body.rows) ? body.rows : [body];
  if (list.length > MAX_BRIDGE_ROWS) throw new ApiError('payload_too_large', `${list.length} rows; at most ${MAX_BRIDGE_ROWS} rows per request`);
  const parsed: ParsedBridgeBody = { received: list.length, rows: [], problems: [] };
  list.forEach((row, at) => {
    if (!isObject(row)) parsed.problems.push(`row ${at}: not a JSON object`);
    else if (!Object.values(row).some(hasValue)) parsed.problems.push(`row ${at}: no values`);
    else parsed.rows.push({ at, row });
  });
  return parsed;
}
