import { sql } from 'drizzle-orm';
import { boolean, date, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { apiKeys, clients, organizations } from './orgs';
import { leads, replies } from './leads';

// One pending draft per reply (governed send); a repeat send replaces body, keeps suggestion_id.
export const drafts = pgTable('drafts', {
  replyId: uuid('reply_id').primaryKey().references(() => replies.id, { onDelete: 'cascade' }),
  orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
  suggestionId: text('suggestion_id').notNull(),
  body: text('body').notNull(),
  originalSuggestion: text('original_suggestion'),
  edited: boolean('edited').notNull().default(false),
  keyId: uuid('key_id').references(() => apiKeys.id, { onDelete: 'set null' }),
  reason: text('reason').notNull(),
  queuedAt: timestamp('queued_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

export const sendingProviders = pgTable('sending_providers', {
  orgId: uuid('org_id').primaryKey().references(() => organizations.id, { onDelete: 'cascade' }),
  // outbox (embedded), http (the org's own service), or a sending tool's reply API (instantly, smartlead).
  kind: text('kind').$type<'outbox' | 'http' | 'instantly' | 'smartlead'>().notNull(),
  url: text('url'),
  // AES-GCM ciphertext (lib/crypto/secrets): the http signing secret or the tool's API key; null when none.
  secretEnc: text('secret_enc'),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

// What the embedded `outbox` provider "sent": recorded, never delivered.
export const outboxMessages = pgTable(
  'outbox_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    replyId: uuid('reply_id'),
    toEmail: text('to_email').notNull(),
    body: text('body').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('outbox_org_idx').on(t.orgId, t.sentAt)],
);

// Stored first answers for Idempotency-Key retries (send, approve, suggest).
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    keyId: uuid('key_id').notNull().references(() => apiKeys.id, { onDelete: 'cascade' }),
    idemKey: text('idem_key').notNull(),
    route: text('route').notNull(),
    requestHash: text('request_hash').notNull(),
    status: integer('status'),
    response: jsonb('response').$type<unknown>(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.keyId, t.route, t.idemKey] })],
);

// Credits spent per key and UTC day (the database adapter of the credit meter).
export const creditUsage = pgTable(
  'credit_usage',
  {
    keyId: uuid('key_id').notNull().references(() => apiKeys.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    used: integer('used').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.keyId, t.day] })],
);

// What the assistant learned from feedback and edited sends, per client and medium.
export const learnedExamples = pgTable(
  'learned_examples',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    clientId: uuid('client_id').references(() => clients.id, { onDelete: 'cascade' }),
    medium: text('medium').notNull(),
    replyText: text('reply_text').notNull(),
    classification: text('classification'),
    original: text('original').notNull(),
    edited: text('edited').notNull(),
    accepted: boolean('accepted').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('learned_org_client_medium_idx').on(t.orgId, t.clientId, t.medium, t.createdAt)],
);

export const followups = pgTable(
  'followups',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    leadId: uuid('lead_id').notNull().references(() => leads.id, { onDelete: 'cascade' }),
    replyId: uuid('reply_id').notNull().references(() => replies.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<'followup' | 'checkin'>().notNull(),
    dueAt: timestamp('due_at', { withTimezone: true, mode: 'date' }).notNull(),
    body: text('body').notNull(),
    status: text('status').$type<'planned' | 'review' | 'cancelled' | 'sent'>().notNull().default('planned'),
    reason: text('reason'),
    attempts: integer('attempts').notNull().default(0),
    // When the send is next tried: due_at, later after a blocked or failed try. The sweep finds planned rows by it.
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    index('followups_lead_idx').on(t.leadId),
    index('followups_org_idx').on(t.orgId),
    index('followups_planned_next_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'planned'`),
  ],
);

export const crmNotes = pgTable(
  'crm_notes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    leadId: uuid('lead_id').notNull().references(() => leads.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    by: text('by').notNull(),
    text: text('text').notNull(),
  },
  (t) => [index('crm_notes_lead_idx').on(t.leadId, t.at)],
);

