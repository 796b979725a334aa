import { events } from '../../schema';
import { randomToken } from '../crypto/secrets';
import type { Db } from '../db/types';

export const EVENT_KINDS = ['lead.replied', 'lead.updated', 'reply.sent', 'reply.approved', 'assistant.suggested', 'test.ping'] as const;
export type EventKind = (typeof EVENT_KINDS)[number];
/** The kinds an endpoint may subscribe to at registration (core §4). */
export const SUBSCRIBABLE_EVENTS = ['lead.replied', 'lead.updated', 'reply.sent', 'assistant.suggested'] as const;

export const PAYLOAD_TEXT_LIMIT = 500;
export const truncate = (text: string, max = PAYLOAD_TEXT_LIMIT) => (text.length > max ? text.slice(0, max) : text);

/**
 * Writes an event row. Call it with the transaction of the change it describes, so the event commits with the
 * change or not at all; the webhook dispatcher picks committed rows up from the outbox.
 */
export async function emitEvent(tx: Db, e: { orgId: string; kind: EventKind; data: Record<string, unknown>; at: Date }) {
  const id = `evt_${randomToken(24, 'base62')}`;
  await tx.insert(events).values({ id, orgId: e.orgId, kind: e.kind, data: e.data, createdAt: e.at });
  return id;
}
