/** The calendar day (YYYY-MM-DD) of an instant in an IANA time zone: imports are named and grouped by it. */
export function dayIn(timeZone: string, at: Date): string {
  // en-CA formats dates as YYYY-MM-DD; an unknown zone (never stored: timezones are checked on write) falls back to UTC.
  try {
    return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
  } catch {
    return at.toISOString().slice(0, 10);
  }
}
