import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

export type OrgFeatures = { crm: boolean; agency_tools: boolean; studio: boolean };
export type PortalPermissions = {
  show_hot: boolean;
  show_warm: boolean;
  show_cold: boolean;
  show_not_interested: boolean;
};

/** A client's reply playbook: how replies to its prospects are answered. */
export type Playbook = { instructions: string; tone: string | null; signature: string | null; rules: string[] };

export const organizations = pgTable('organizations', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  features: jsonb('features').$type<OrgFeatures>().notNull(),
  demo: boolean('demo').notNull().default(false),
  // The agency account (agency-operator.md §5): the plan's client limit, the credit balance paid tools spend,
  // whether it pays, its timezone (plan steps run at 08:00 there), the push gate and the Studio pause switch.
  clientLimit: integer('client_limit').notNull().default(10),
  credits: integer('credits').notNull().default(1000),
  paying: boolean('paying').notNull().default(false),
  timezone: text('timezone').notNull().default('UTC'),
  pushGateOpen: boolean('push_gate_open').notNull().default(false),
  studioPaused: boolean('studio_paused').notNull().default(false),
  // The agency's own notes for its assistant (get_agency_docs / update_agency_docs).
  agencyDocs: text('agency_docs').notNull().default(''),
  agencyDocsUpdatedAt: timestamp('agency_docs_updated_at', { withTimezone: true, mode: 'date' }),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

export const clients = pgTable(
  'clients',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    portal: jsonb('portal').$type<PortalPermissions>().notNull(),
    // The reply playbook in force (null until the first update_playbook) and its version; older versions stay in
    // playbook_versions.
    playbook: jsonb('playbook').$type<Playbook>(),
    playbookVersion: integer('playbook_version').notNull().default(0),
    autoWrite: boolean('auto_write').notNull().default(false),
    autoProtect: boolean('auto_protect').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    // Moves on every change of the client's own fields: update_client's if_updated_at compares against it.
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
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
    // `agency`: an agency tool server key (agency-operator.md §5), organization-wide, agency.* plus allowed opt-ins.
    kind: text('kind').$type<'api' | 'agency'>().notNull().default('api'),
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
