import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

export type OrgFeatures = { crm: boolean; agency_tools: boolean; studio: boolean };
export type PortalPermissions = {
  show_hot: boolean;
  show_warm: boolean;
  show_cold: boolean;
  show_not_interested: boolean;
};

export const organizations = pgTable('organizations', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  features: jsonb('features').$type<OrgFeatures>().notNull(),
  demo: boolean('demo').notNull().default(false),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

export const clients = pgTable(
  'clients',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    portal: jsonb('portal').$type<PortalPermissions>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('clients_org_idx').on(t.orgId)],
);

export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    clientId: uuid('client_id').references(() => clients.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    prefix: text('prefix').$type<'live' | 'partner'>().notNull(),
    // Only the SHA-256 of the whole key is stored; the key itself is shown once at creation.
    keyHash: text('key_hash').notNull(),
    keyHint: text('key_hint').notNull(),
    scopes: jsonb('scopes').$type<string[]>().notNull(),
    autonomyLevel: integer('autonomy_level').notNull().default(0),
    rateLimitPerMinute: integer('rate_limit_per_minute').notNull().default(100),
    dailyCreditLimit: integer('daily_credit_limit').notNull().default(100),
    readOnly: boolean('read_only').notNull().default(false),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('api_keys_hash_uq').on(t.keyHash), index('api_keys_org_idx').on(t.orgId)],
);

// The Decision Trail: every governance decision and CRM write, written in the transaction of the change.
export const decisions = pgTable(
  'decisions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    actor: text('actor').notNull(),
    action: text('action').notNull(),
    replyId: uuid('reply_id'),
    leadId: uuid('lead_id'),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
  },
  (t) => [index('decisions_org_at_idx').on(t.orgId, t.at), index('decisions_lead_idx').on(t.leadId)],
);

// Event outbox: one row per domain event, committed with the change that caused it.
export const events = pgTable(
  'events',
  {
    id: text('id').primaryKey(),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    // Set once the dispatcher has fanned the event out into deliveries.
    dispatchedAt: timestamp('dispatched_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    index('events_pending_idx').on(t.createdAt).where(sql`${t.dispatchedAt} is null`),
    index('events_org_idx').on(t.orgId),
    // The retention prune's scan for dispatched events past the history window (lib/webhooks/prune.ts).
    index('events_dispatched_idx').on(t.dispatchedAt).where(sql`${t.dispatchedAt} is not null`),
  ],
);
