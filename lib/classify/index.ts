import { classifyHosted } from './hosted';
import { classifyOffline } from './offline';
import { stripQuoted } from './strip_quoted';
import type { ClassifyResult } from './types';

export * from './types';
export { stripQuoted } from './strip_quoted';
export { classifyOffline, detectReturnDate } from './offline';
export { classifyHosted, type HostedConfig } from './hosted';

export interface ClassifyReplyOptions {
  subject?: string;
  hosted?: Parameters<typeof classifyHosted>[1] | null;
  /** Called when the hosted model fails and the offline classifier is used instead. */
  onHostedError?: (err: unknown) => void;
}

/**
 * Hosted model when configured, else offline. Any hosted failure (HTTP error,
 * bad JSON, unknown label, timeout) falls back to offline so a reply is never
 * left unclassified because a third-party API is down.
 */
export async function classifyReply(text: string, opts: ClassifyReplyOptions = {}): Promise<ClassifyResult> {
  if (opts.hosted) {
    try {
      // Quoted thread only adds tokens and misleads the model; the subject carries auto-reply markers.
      const own = stripQuoted(text);
      const input = opts.subject ? `Subject: ${opts.subject}\n\n${own}` : own;
      const r = await classifyHosted(input, opts.hosted);
      return { ...r, engine: 'hosted' };
    } catch (err) {
      opts.onHostedError?.(err);
    }
  }
  const r = classifyOffline(text, { subject: opts.subject });
  return { classification: r.classification, confidence: r.confidence, engine: 'offline' };
}
