// The field types every adapter's zod schema is built from, and the normalizers that turn a provider's values into
// the shape NormalizedInbound promises. Providers differ in what they send for "nothing" (absent key, null, "") and
// in how they type ids (number or string), so these accept all of it and normalize once, here.
import { z } from 'zod';

/** An optional string: absent, null and "" all mean "not given" (Smartlead's documented structures use ""). */
export const optionalText = z.string().nullish();

/** An id a provider sends as a number or a string (Smartlead documents both for the same field). */
export const optionalId = z.union([z.string(), z.number()], { error: 'expected a string or a number' }).nullish();

/** A time as the providers document it (ISO 8601); unix seconds or milliseconds are accepted too. */
export const optionalTime = z.union([z.string(), z.number()], { error: 'expected an ISO 8601 string or a unix time' }).nullish();

/** The string with surrounding space removed, or null when nothing is left. */
export function trimmed(value: string | null | undefined): string | null {
  const s = value?.trim();
  return s ? s : null;
}

/** A body is kept exactly as sent (quoted text and whitespace matter to the classifier), unless it is blank. */
export function body(value: string | null | undefined): string | null {
  return value && value.trim() ? value : null;
}

/** Ids always leave as strings, so a provider switching between 42 and "42" does not change a key. */
export function idString(value: string | number | null | undefined): string | null {
  return typeof value === 'number' ? String(value) : trimmed(value);
}

const EMAIL = z.email();

/**
 * A mailbox address, trimmed and lower-cased; "Name <addr>" is reduced to addr. `invalid` when something was sent
 * that is not an address, so the caller can name the field.
 */
export function emailAddress(value: string | null | undefined): { email: string } | 'absent' | 'invalid' {
  const raw = trimmed(value);
  if (!raw) return 'absent';
  const email = (/<([^<>]+)>$/.exec(raw)?.[1] ?? raw).trim().toLowerCase();
  return EMAIL.safeParse(email).success ? { email } : 'invalid';
}

/** The address in the value, or null when there is none (absent or not an address). */
export function addressIn(value: string | null | undefined): string | null {
  const address = emailAddress(value);
  return typeof address === 'object' ? address.email : null;
}

// Date (and optionally time, fraction and offset) as the providers write them: Smartlead sends microseconds
// ("…11.618881+00:00"), EmailBison "….000000Z".
const ISO_LIKE = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2})?)(?:\.(\d+))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
// Unix times before this are taken as seconds: 1e12 ms is September 2001, 1e12 s is tens of millennia away.
const MILLISECONDS_FROM = 1e12;

/**
 * An instant as an ISO 8601 string in UTC (`toISOString`), or null when the value is not a time. A time without an
 * offset is read as UTC: the providers document UTC timestamps.
 */
export function isoTime(value: string | number | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' || /^\d+(\.\d+)?$/.test(value.trim())) {
    const n = Number(value);
    return fromEpochMs(n >= MILLISECONDS_FROM ? n : n * 1000);
  }
  const m = ISO_LIKE.exec(value.trim());
  if (!m) return null;
  const [, date, time = '00:00:00', fraction = '', offset = 'Z'] = m;
  const millis = fraction ? `.${fraction.slice(0, 3).padEnd(3, '0')}` : '';
  const zone = offset.toUpperCase() === 'Z' ? 'Z' : offset.length === 3 ? `${offset}:00` : offset.replace(/^([+-]\d{2})(\d{2})$/, '$1:$2');
  const ms = Date.parse(`${date}T${time.length === 5 ? `${time}:00` : time}${millis}${zone}`);
  return fromEpochMs(ms);
}

function fromEpochMs(ms: number): string | null {
  // Outside ±8.64e15 ms a Date is invalid and toISOString throws; a reply from before 1970 is not a reply either.
  if (!Number.isFinite(ms) || ms < 0 || ms > 8.64e15) return null;
  return new Date(ms).toISOString();
}

/** The value when it is an RFC 5322 Message-ID (`<local@domain>`), else null. */
export function rfcMessageId(value: string | null | undefined): string | null {
  const s = trimmed(value);
  return s && /^<[^<>\s@]+@[^<>\s@]+>$/.test(s) ? s : null;
}
