import { ApiError } from '../errors';

/**
 * The IANA name of a time zone the runtime knows, or null. Intl is the judge: what it accepts is what plan steps
 * (08:00 in the organization's timezone) can compute with. UTC offsets ("+02:00"), which newer runtimes accept,
 * are refused: they are not IANA names and know no daylight saving time. A name that differs from Intl's own
 * only in case takes Intl's spelling ("europe/berlin" → "Europe/Berlin"); aliases stay as given, because Intl
 * resolves some modern names to older ones (Asia/Kolkata → Asia/Calcutta).
 */
export function ianaTimeZone(name: string): string | null {
  const given = name.trim();
  if (!given || given.length > 64 || /^[+-]/.test(given)) return null;
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat('en-US', { timeZone: given }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
  return resolved.toLowerCase() === given.toLowerCase() ? resolved : given;
}

export function requireTimeZone(name: string): string {
  const zone = ianaTimeZone(name);
  if (!zone) throw new ApiError('validation_error', `timezone: ${JSON.stringify(name)} is not an IANA time zone name (such as Europe/Berlin or UTC)`);
  return zone;
}
