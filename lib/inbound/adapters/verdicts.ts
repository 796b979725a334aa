// How an adapter says what it made of a body: the three AdapterResult kinds, and the problem sentences of an
// `invalid` one. Every sentence starts with the field's path, like the API's own validation errors
// (lib/http/validation.ts), so whoever configured the tool sees which field to fix.
import type { z } from 'zod';
import type { AdapterResult, NormalizedInbound } from '../types';
import { emailAddress, isoTime } from './fields';

export const reply = (normalized: NormalizedInbound): AdapterResult => ({ kind: 'reply', reply: normalized });
export const ignored = (reason: string): AdapterResult => ({ kind: 'ignored', reason });
export const invalid = (problems: string[]): AdapterResult => ({ kind: 'invalid', problems });

export type JsonObject = Record<string, unknown>;

/** An event name from a body, quoted for a reason sentence; cut short, since the body is the sender's to choose. */
export const eventName = (type: string) => `"${type.length > 64 ? `${type.slice(0, 64)}…` : type}"`;

/** What a JSON value is, in the words a problem sentence uses. */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; verdict: AdapterResult };

/** Every webhook body we read is a JSON object; anything else is refused before a schema runs. */
export function objectBody(payload: unknown): Parsed<JsonObject> {
  if (typeof payload === 'object' && payload !== null && !Array.isArray(payload)) return { ok: true, value: payload as JsonObject };
  return { ok: false, verdict: invalid([`body: expected a JSON object, got ${kindOf(payload)}`]) };
}

/** The schema's output, or `invalid` with one sentence per zod issue. */
export function parseWith<T extends z.ZodType>(schema: T, body: JsonObject): Parsed<z.output<T>> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, verdict: invalid(parsed.error.issues.map((issue) => describeIssue(issue, body))) };
}

function describeIssue(issue: z.core.$ZodIssue, body: JsonObject): string {
  const where = issue.path.map(String).join('.') || 'body';
  const value = valueAt(body, issue.path);
  if (issue.code === 'invalid_type' || issue.code === 'invalid_union') {
    if (value === undefined) return `${where}: missing`;
    const expected = issue.code === 'invalid_type' ? `expected ${article(issue.expected)}` : issue.message;
    return `${where}: ${expected}, got ${kindOf(value)}`;
  }
  return `${where}: ${issue.message}`;
}

function valueAt(body: unknown, path: PropertyKey[]): unknown {
  let value = body;
  for (const key of path) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

const article = (type: string) => (type === 'object' || type === 'array' ? `an ${type}` : `a ${type}`);

/**
 * Collects the problems of a body that passed its schema but not the rules between fields (an address that is not
 * one, a reply without a body). The readers return null for a bad value, so mapping continues and every problem
 * is reported at once.
 */
export class Problems {
  readonly list: string[] = [];

  add(sentence: string): null {
    this.list.push(sentence);
    return null;
  }

  /**
   * The first candidate field that holds an address (later ones are fallbacks). When none does, one sentence: the
   * first field that held something else, or all of them as missing.
   */
  requiredEmail(...candidates: [field: string, value: string | null | undefined][]): string | null {
    let firstInvalid: string | null = null;
    for (const [field, value] of candidates) {
      const address = emailAddress(value);
      if (address === 'invalid') firstInvalid ??= field;
      else if (address !== 'absent') return address.email;
    }
    return this.add(firstInvalid ? `${firstInvalid}: not an email address` : `${candidates.map(([field]) => field).join(' / ')}: missing`);
  }

  /** An address that may be absent; a value that is not one is still a problem. */
  optionalEmail(field: string, value: string | null | undefined): string | null {
    const address = emailAddress(value);
    if (address === 'invalid') return this.add(`${field}: not an email address`);
    return address === 'absent' ? null : address.email;
  }

  /** The first candidate that holds a readable time, as ISO 8601 UTC; null when none is given. */
  optionalTime(...candidates: [field: string, value: string | number | null | undefined][]): string | null {
    for (const [field, value] of candidates) {
      if (value === null || value === undefined || (typeof value === 'string' && !value.trim())) continue;
      const iso = isoTime(value);
      return iso ?? this.add(`${field}: not a timestamp (ISO 8601 or unix time)`);
    }
    return null;
  }
}
