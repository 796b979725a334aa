import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { clients, organizations } from './orgs';

export type LastError = { status: number | null; body: string | null; error: string | null; at: string };

export const webhooks = pgTable(
  'webhooks',
  {
    id: text('id').primaryKey(), // 'wh-…'
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    // Set when a client-locked key created it: it then receives only events of that client's campaigns.
    clientId: uuid('client_id').references(() => clients.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    url: text('url').notNull(),
    events: jsonb('events').$type<string[]>().notNull(),
    // Encrypted at rest: signing needs the secret itself, so it cannot be a hash.
    secretEnc: text('secret_enc').notNull(),
    // During a secret roll the replaced secret keeps signing (beside the new one) until it expires.
    previousSecretEnc: text('previous_secret_enc'),
    previousSecretExpiresAt: timestamp('previous_secret_expires_at', { withTimezone: true, mode: 'date' }),
    isActive: boolean('is_active').notNull().default(true),
    failureCount: integer('failure_count').notNull().default(0),
    disabledReason: text('disabled_reason'),
    lastDeliveryAt: timestamp('last_delivery_at', { withTimezone: true, mode: 'date' }),
    lastError: jsonb('last_error').$type<LastError>(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('webhooks_org_idx').on(t.orgId)],
);

// One row per (event, endpoint): the unit that is retried until delivered or out of attempts.
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    webhookId: text('webhook_id').notNull().references(() => webhooks.id, { onDelete: 'cascade' }),
    eventId: text('event_id').notNull(),
    eventKind: text('event_kind').notNull(),
    // The exact body sent on every attempt: retries never re-render it.
    body: text('body').notNull(),
    status: text('status').$type<'pending' | 'succeeded' | 'failed'>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_uq').on(t.webhookId, t.eventId),
    index('webhook_deliveries_org_idx').on(t.orgId),
    // The sweep's scan for pending deliveries whose time has come (or whose lease ran out).
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    // The retention prune's scan for finished deliveries past the history window (lib/webhooks/prune.ts).
    index('webhook_deliveries_finished_idx').on(t.updatedAt).where(sql`${t.status} <> 'pending'`),
  ],
);

export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deliveryId: uuid('delivery_id').notNull().references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    webhookId: text('webhook_id').notNull().references(() => webhooks.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    ok: boolean('ok').notNull(),
    // 'test' and 'redeliver' are manual attempts: they never move the endpoint's failure count.
    trigger: text('trigger').$type<'automatic' | 'test' | 'redeliver'>().notNull().default('automatic'),
    httpStatus: integer('http_status'),
    durationMs: integer('duration_ms').notNull(),
    error: text('error'),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    index('webhook_attempts_hook_idx').on(t.webhookId, t.at),
    // Deleting a delivery cascades to its attempts: without this each deleted delivery scans the whole table.
    index('webhook_attempts_delivery_idx').on(t.deliveryId),
  ],
);

// The embedded scheduler: jobs are rows, leased by a worker, so a killed process loses nothing.
export const jobs = pgTable(
  'jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    runAt: timestamp('run_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
    lockedUntil: timestamp('locked_until', { withTimezone: true, mode: 'date' }),
    lastError: text('last_error'),
    dedupeKey: text('dedupe_key'),
    doneAt: timestamp('done_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    index('jobs_due_idx').on(t.runAt).where(sql`${t.doneAt} is null`),
    uniqueIndex('jobs_dedupe_uq').on(t.dedupeKey),
  ],
);
