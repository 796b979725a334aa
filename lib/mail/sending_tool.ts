// What the Instantly and Smartlead adapters share: reading the inbound webhook's provider_ref, turning our plain
// text answer into the HTML those tools send, and turning a client error into the port's `ok: false`.
import { ProviderApiError } from '../providers/request';
import type { OutgoingMessage, ProviderResult } from './port';

/** A provider_ref value as a non-empty string (numbers, e.g. Smartlead's campaign id, become text), else null. */
export function refText(ref: OutgoingMessage['providerRef'], key: string): string | null {
  const v = ref?.[key];
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v === 'string' && v.trim()) return v.trim();
  return null;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Plain text as HTML: escaped, blank-line paragraphs as <p>, single line breaks as <br>. */
export function textToHtml(text: string): string {
  const escaped = text.replace(/\r\n?/g, '\n').replace(/[&<>"']/g, (c) => ESCAPES[c]);
  return escaped
    .split(/\n{2,}/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => `<p>${p.replace(/\n/g, '<br>')}</p>`)
    .join('');
}

/**
 * The port's verdict on a call that threw. A 2xx whose body we could not read was still accepted by the tool:
 * reporting it as a failure would let a retry send the prospect the answer twice. A failure after which the tool
 * may have sent it anyway (timeout, broken connection, 5xx, redirect) is `unknown`; a refusal is `not_sent`.
 * Anything but a client error is a bug and is thrown on (the send path then releases its claim and answers 500).
 */
export function toolFailure(err: unknown): ProviderResult {
  if (!(err instanceof ProviderApiError)) throw err;
  if (err.accepted) return { ok: true };
  return { ok: false, error: err.message, outcome: err.mayHaveActed ? 'unknown' : 'not_sent' };
}

/** A send refused before any call was made (the reply lacks what the tool's API needs). */
export const notSent = (error: string): ProviderResult => ({ ok: false, error, outcome: 'not_sent' });
