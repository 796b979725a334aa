import { ApiError } from '../errors';
import { entryValue, type SuppressionKind } from '../suppression/values';
import { websiteHost } from './never_mail';

export const MAX_ENTRIES = 20_000;
/** How many refused entries an answer names (the count is always whole). */
export const MAX_INVALID_LISTED = 100;

export type ParsedEntries = {
  received: number;
  /** Distinct valid values, in input order. */
  kinds: SuppressionKind[];
  values: string[];
  emails: number;
  domains: number;
  duplicatesInInput: number;
  invalidCount: number;
  invalid: { index: number; entry: string; reason: string }[];
};

/**
 * What one entry of a never-mail import means. An entry with an "@" inside is an address; "@acme.com" and plain
 * names are domains; a website ("https://www.acme.com/about") stands for its host. A leading "www." is dropped
 * from a domain: no one receives mail at www.acme.com, and whoever lists it means the company.
 */
function parseEntry(raw: string): { kind: SuppressionKind; value: string } {
  const text = raw.trim();
  if (!text) throw new ApiError('validation_error', 'empty entry');
  const at = text.indexOf('@');
  if (at > 0) return { kind: 'email', value: entryValue('email', text, 'entry') };
  const host = /[/:]/.test(text) ? websiteHost(text) : text.replace(/^@/, '').replace(/^www\./i, '');
  if (!host) throw new ApiError('validation_error', 'entry: not a domain name or a website');
  return { kind: 'domain', value: entryValue('domain', host, 'entry') };
}

/** Every entry normalised (lib/suppression/values.ts), deduplicated, refused ones counted and the first named. */
export function parseEntries(entries: readonly string[]): ParsedEntries {
  const out: ParsedEntries = { received: entries.length, kinds: [], values: [], emails: 0, domains: 0, duplicatesInInput: 0, invalidCount: 0, invalid: [] };
  const seen = new Set<string>();
  entries.forEach((raw, index) => {
    let parsed: { kind: SuppressionKind; value: string };
    try {
      parsed = parseEntry(raw);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      out.invalidCount++;
      if (out.invalid.length < MAX_INVALID_LISTED) out.invalid.push({ index, entry: raw.slice(0, 200), reason: err.message.replace(/^entry: /, '') });
      return;
    }
    const key = `${parsed.kind}:${parsed.value}`;
    if (seen.has(key)) {
      out.duplicatesInInput++;
      return;
    }
    seen.add(key);
    out.kinds.push(parsed.kind);
    out.values.push(parsed.value);
    if (parsed.kind === 'email') out.emails++;
    else out.domains++;
  });
  return out;
}
