import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { apiKeys, clients, organizations, type Playbook } from './orgs';
import { campaigns } from './leads';

// Every earlier version of a client's playbook (the one in force is on the client row too).
export const playbookVersions = pgTable(
  'playbook_versions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    clientId: uuid('client_id').notNull().references(() => clients.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    playbook: jsonb('playbook').$type<Playbook>().notNull(),
    actor: text('actor').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('playbook_versions_client_version_uq').on(t.clientId, t.version)],
);

// Campaigns that exist at the sending tool but are not imported yet (list_campaigns shows them; import_campaigns
// turns them into campaigns and records which).
export const providerCampaigns = pgTable(
  'provider_campaigns',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    providerCampaignId: text('provider_campaign_id').notNull(),
    name: text('name').notNull(),
    status: text('status').$type<'active' | 'paused' | 'completed'>().notNull().default('active'),
    importedCampaignId: uuid('imported_campaign_id').references(() => campaigns.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('provider_campaigns_org_pcid_uq').on(t.orgId, t.providerCampaignId)],
);

// Two-step confirm (agency-operator.md §3): the token's hash, bound to key, tool, canonical arguments and a hash of
// the state the preview read. Marked used in the transaction of the change it confirms.
export const confirmTokens = pgTable(
  'confirm_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    keyId: uuid('key_id').notNull().references(() => apiKeys.id, { onDelete: 'cascade' }),
    tool: text('tool').notNull(),
    argsHash: text('args_hash').notNull(),
    stateHash: text('state_hash').notNull(),
    credits: integer('credits').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('confirm_tokens_expires_idx').on(t.expiresAt)],
);

// The agency audit log: one row per agency write, in the write's transaction.
export const auditLog = pgTable(
  'audit_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    actor: text('actor').notNull(),
    action: text('action').notNull(),
    target: text('target'),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    credits: integer('credits').notNull().default(0),
  },
  (t) => [index('audit_log_org_at_idx').on(t.orgId, t.at)],
);

// The organization's credit ledger: a charge (negative) or top-up (positive) per row, unique by reference so a
// retried step never charges twice. organizations.credits is the running balance, moved in the same statement.
export const creditLedger = pgTable(
  'credit_ledger',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    keyId: uuid('key_id').references(() => apiKeys.id, { onDelete: 'set null' }),
    reference: text('reference').notNull(),
    amount: integer('amount').notNull(),
    balanceAfter: integer('balance_after').notNull(),
    reason: text('reason').notNull(),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('credit_ledger_org_reference_uq').on(t.orgId, t.reference)],
);
