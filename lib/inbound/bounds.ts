import { entryValue } from '../suppression/values';
import type { NormalizedInbound } from './types';

// What the database can index and the rest of the product can act on. Providers document no lengths, so these
// are ours: a value past them is refused with a 400 naming the field (a 500 from an index row that is too large
// would make the tool retry the same body forever).
const MAX_MESSAGE_ID = 512;
const MAX_CAMPAIGN_ID = 200;
const MAX_EMAIL = 254; // RFC 5321's limit on a path, the practical limit on an address
const MAX_SUBJECT = 1000;
const MAX_NAME = 200;
const MAX_REFERENCES = 8000;

/**
 * How far ahead of our clock a reply's `received_at` may be: a sender's clock a little fast is tolerated; a reply
 * from further in the future would sort above every real reply (lists, briefs, `since`) for as long as it lasts.
 */
export const RECEIVED_AT_MAX_AHEAD_MS = 5 * 60_000;

/** What is wrong with a `received_at` (an ISO time already checked for format) at `now`, or null. No field prefix. */
export function receivedAtProblem(receivedAt: string | null | undefined, now: Date): string | null {
  if (!receivedAt) return null;
  const at = Date.parse(receivedAt);
  if (!(at > now.getTime() + RECEIVED_AT_MAX_AHEAD_MS)) return null;
  return `more than ${RECEIVED_AT_MAX_AHEAD_MS / 60_000} minutes in the future (${new Date(at).toISOString()}; the service's time is ${now.toISOString()})`;
}

/** One sentence per problem, each starting with the field, or an empty list. `now` is the service's clock. */
export function boundsProblems(r: NormalizedInbound, now: Date): string[] {
  const problems: string[] = [];
  const future = receivedAtProblem(r.received_at, now);
  if (future) problems.push(`received_at: ${future}`);
  const tooLong = (field: string, value: string | null | undefined, max: number) => {
    if (value && value.length > max) problems.push(`${field}: longer than ${max} characters`);
  };
  tooLong('message_id', r.message_id, MAX_MESSAGE_ID);
  tooLong('rfc_message_id', r.rfc_message_id, MAX_MESSAGE_ID);
  tooLong('in_reply_to', r.in_reply_to, MAX_MESSAGE_ID);
  tooLong('references', r.references, MAX_REFERENCES);
  tooLong('campaign.id', r.campaign.id, MAX_CAMPAIGN_ID);
  tooLong('subject', r.subject, MAX_SUBJECT);
  tooLong('from_name', r.from_name, MAX_NAME);
  for (const [field, value] of [['from_email', r.from_email], ['to_email', r.to_email]] as const) {
    if (!value) continue;
    if (value.length > MAX_EMAIL) problems.push(`${field}: longer than ${MAX_EMAIL} characters`);
    // The same rules as the do-not-contact list's entries: an address we could not list is one we cannot serve.
    else {
      try {
        entryValue('email', value, field);
      } catch (err) {
        problems.push((err as Error).message);
      }
    }
  }
  for (const [key, value] of Object.entries(r.provider_ref ?? {})) tooLong(`provider_ref.${key}`, typeof value === 'string' ? value : null, MAX_MESSAGE_ID);
  return problems;
}
