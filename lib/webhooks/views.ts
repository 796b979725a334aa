import { webhooks } from '../../schema';
import { truncate } from '../events/outbox';

/** The Webhook resource (core §2). The secret never appears here: it is shown once, by create. */
export function webhookView(w: typeof webhooks.$inferSelect) {
  return {
    id: w.id,
    name: w.name,
    url: w.url,
    events: w.events,
    is_active: w.isActive,
    failure_count: w.failureCount,
    disabled_reason: w.disabledReason,
    client_id: w.clientId,
    created_at: w.createdAt.toISOString(),
    last_delivery_at: w.lastDeliveryAt?.toISOString() ?? null,
    last_attempt_at: lastAttemptAt(w),
    last_error: w.lastError ?? null,
  };
}

/**
 * The latest attempt, successful or not. Every attempt either delivers (`last_delivery_at`: the latest successful
 * one) or fails (`last_error.at`: the latest failed one), so the later of the two is the latest attempt; no column
 * of its own, and unlike the attempt log it survives the 30-day history prune.
 */
function lastAttemptAt(w: typeof webhooks.$inferSelect): string | null {
  const times = [w.lastDeliveryAt?.getTime(), w.lastError ? Date.parse(w.lastError.at) : undefined].filter((t): t is number => t !== undefined && !Number.isNaN(t));
  return times.length ? new Date(Math.max(...times)).toISOString() : null;
}
export type WebhookView = ReturnType<typeof webhookView>;

/** Kinds an endpoint receives because of what it subscribed to: `reply.approved` rides on `reply.sent`. */
export function isSubscribed(subscribed: readonly string[], kind: string): boolean {
  return subscribed.includes(kind) || (kind === 'reply.approved' && subscribed.includes('reply.sent'));
}

// Text fields the spec caps at 500 characters in payloads; capped again here whoever emitted the event.
const CAPPED_FIELDS = ['reply_text', 'suggestion'];

/** The exact bytes every endpoint gets for an event, on every attempt: `{ id, event, created_at, data }`. */
export function eventBody(e: { id: string; kind: string; createdAt: Date; data: Record<string, unknown> }): string {
  const data = { ...e.data };
  for (const f of CAPPED_FIELDS) if (typeof data[f] === 'string') data[f] = truncate(data[f] as string);
  return JSON.stringify({ id: e.id, event: e.kind, created_at: e.createdAt.toISOString(), data });
}
