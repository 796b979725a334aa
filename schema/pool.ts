import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { apiKeys, clients, organizations } from './orgs';

// The Studio's lead pool (issue 14): a client's prospects before any campaign. Not the core `leads` table, which
// holds prospects who replied (one per email + campaign).

export type EmailStatus = 'valid' | 'risky' | 'invalid' | 'unknown';
export type PoolLeadStatus = 'new' | 'waiting_for_email' | 'in_batch' | 'pushed' | 'replied' | 'removed';
export type Provenance = Record<string, { source: string; by: string; at: string }>;
export type CustomValue = string | number | boolean | null;

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const poolLeads = pgTable(
  'pool_leads',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    clientId: uuid('client_id').notNull().references(() => clients.id, { onDelete: 'cascade' }),
    // Lower-cased; null while the lead waits for the email waterfall.
    email: text('email'),
    emailStatus: text('email_status').$type<EmailStatus>(),
    firstName: text('first_name'),
    lastName: text('last_name'),
    fullName: text('full_name'),
    company: text('company'),
    // Lower-cased host without www. (the company's domain, from the row or the website).
    domain: text('domain'),
    website: text('website'),
    title: text('title'),
    linkedinUrl: text('linkedin_url'),
    companyLinkedinUrl: text('company_linkedin_url'),
    country: text('country'),
    city: text('city'),
    state: text('state'),
    volumeBand: text('volume_band').$type<'high' | 'medium' | 'low'>(),
    monthlyVolume: integer('monthly_volume'),
    mailType: text('mail_type'),
    currentSender: text('current_sender'),
    hook: text('hook'),
    namedAccount: boolean('named_account'),
    sendsForCustomers: boolean('sends_for_customers'),
    note: text('note'),
    icpId: uuid('icp_id'),
    status: text('status').$type<PoolLeadStatus>().notNull().default('new'),
    custom: jsonb('custom').$type<Record<string, CustomValue>>().notNull().default(sql`'{}'::jsonb`),
    provenance: jsonb('provenance').$type<Provenance>().notNull().default(sql`'{}'::jsonb`),
    // lower(person name) | lower(company or domain): the identity of an email-less row.
    personKey: text('person_key'),
    importId: uuid('import_id'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('pool_leads_client_email_uq').on(t.clientId, t.email).where(sql`${t.email} is not null`),
    uniqueIndex('pool_leads_client_person_uq').on(t.clientId, t.personKey).where(sql`${t.email} is null and ${t.personKey} is not null`),
    index('pool_leads_client_created_idx').on(t.clientId, t.createdAt, t.id),
    index('pool_leads_client_domain_idx').on(t.clientId, t.domain),
  ],
);

// Custom columns of a client's pool; a person switches one on for writing (admin API).
export const poolColumns = pgTable(
  'pool_columns',
  {
    clientId: uuid('client_id').notNull().references(() => clients.id, { onDelete: 'cascade' }),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    type: text('type').$type<'text' | 'number' | 'boolean' | 'url'>().notNull(),
    useForWriting: boolean('use_for_writing').notNull().default(false),
    createdBy: text('created_by').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.clientId, t.key] })],
);

// The import history: one row per CSV/tool import (chunks joined by id) and per bridge tool and day.
export const leadImports = pgTable(
  'lead_imports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    clientId: uuid('client_id').notNull().references(() => clients.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    // 'csv' | 'tool' (import_leads) | 'bridge:<tool>'.
    source: text('source').notNull(),
    // YYYY-MM-DD in the organization's timezone when the import began.
    day: text('day').notNull(),
    added: integer('added').notNull().default(0),
    duplicates: integer('duplicates').notNull().default(0),
    alreadyMailed: integer('already_mailed').notNull().default(0),
    waitingForEmail: integer('waiting_for_email').notNull().default(0),
    invalid: integer('invalid').notNull().default(0),
    createdBy: text('created_by').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('lead_imports_client_created_idx').on(t.clientId, t.createdAt),
    // One import per bridge tool and day (its rows all join it).
    uniqueIndex('lead_imports_bridge_day_uq').on(t.clientId, t.source, t.day).where(sql`${t.source} like 'bridge:%'`),
  ],
);

// The latest daily snapshot of who is in a campaign at the sending tool (admin PUT replaces it whole).
export const sequencerSnapshots = pgTable('sequencer_snapshots', {
  clientId: uuid('client_id').primaryKey().references(() => clients.id, { onDelete: 'cascade' }),
  orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
  day: text('day').notNull(),
  count: integer('count').notNull(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const sequencerSnapshotEmails = pgTable(
  'sequencer_snapshot_emails',
  {
    clientId: uuid('client_id').notNull().references(() => clients.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
  },
  (t) => [primaryKey({ columns: [t.clientId, t.email] })],
);

export type IcpRules = { countries?: string[]; titles?: string[]; volume_bands?: ('high' | 'medium' | 'low')[]; keywords?: string[] };

export const icps = pgTable(
  'icps',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    clientId: uuid('client_id').notNull().references(() => clients.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    rules: jsonb('rules').$type<IcpRules>().notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('icps_client_name_uq').on(t.clientId, t.name)],
);

export const segments = pgTable(
  'segments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    clientId: uuid('client_id').notNull().references(() => clients.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    filter: jsonb('filter').$type<Record<string, unknown>>().notNull(),
    createdBy: text('created_by').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('segments_client_name_uq').on(t.clientId, t.name)],
);

// Inbound bridge hooks: one per client and table tool; the secret is shown once and stored as SHA-256.
export const bridgeHooks = pgTable(
  'bridge_hooks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    clientId: uuid('client_id').notNull().references(() => clients.id, { onDelete: 'cascade' }),
    toolName: text('tool_name').notNull(),
    secretHash: text('secret_hash').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    lastReceivedAt: ts('last_received_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('bridge_hooks_client_idx').on(t.clientId)],
);

// Where a client's leads go out to a table tool; the token AES-GCM encrypted (secrets:rotate moves it).
export const tableDestinations = pgTable('table_destinations', {
  clientId: uuid('client_id').primaryKey().references(() => clients.id, { onDelete: 'cascade' }),
  orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
  url: text('url').notNull(),
  tokenEnc: text('token_enc'),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export type TablePushStatus = 'queued' | 'sending' | 'done' | 'failed';

export const tablePushes = pgTable(
  'table_pushes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    clientId: uuid('client_id').notNull().references(() => clients.id, { onDelete: 'cascade' }),
    rows: integer('rows').notNull(),
    sent: integer('sent').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    suppressed: integer('suppressed').notNull().default(0),
    status: text('status').$type<TablePushStatus>().notNull().default('queued'),
    lastError: text('last_error'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('table_pushes_client_idx').on(t.clientId, t.createdAt)],
);

// One row per lead of a push: what makes a push resumable after a crash and never posts a row twice once sent.
export const tablePushItems = pgTable(
  'table_push_items',
  {
    pushId: uuid('push_id').notNull().references(() => tablePushes.id, { onDelete: 'cascade' }),
    leadId: uuid('lead_id').notNull(),
    status: text('status').$type<'pending' | 'sent' | 'failed' | 'suppressed'>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    notBefore: ts('not_before'),
    lastError: text('last_error'),
  },
  (t) => [primaryKey({ columns: [t.pushId, t.leadId] }), index('table_push_items_pending_idx').on(t.pushId, t.status)],
);

export type FinderRunStatus = 'previewed' | 'running' | 'waiting_continue' | 'stopped' | 'done' | 'failed';

// An email-waterfall run: the leads it covers, bound to the confirm token every round reuses.
export const finderRuns = pgTable(
  'finder_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    clientId: uuid('client_id').notNull().references(() => clients.id, { onDelete: 'cascade' }),
    keyId: uuid('key_id').references(() => apiKeys.id, { onDelete: 'set null' }),
    tokenHash: text('token_hash').notNull(),
    leadIds: jsonb('lead_ids').$type<string[]>().notNull(),
    status: text('status').$type<FinderRunStatus>().notNull().default('running'),
    processed: integer('processed').notNull().default(0),
    found: integer('found').notNull().default(0),
    credits: integer('credits').notNull().default(0),
    expiresAt: ts('expires_at').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('finder_runs_token_uq').on(t.tokenHash)],
);

// Every email-finder and verifier call, with what it cost at the provider (also the sim's `finder_calls` rows).
export const finderCalls = pgTable(
  'finder_calls',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    clientId: uuid('client_id').notNull(),
    runId: uuid('run_id'),
    leadId: uuid('lead_id'),
    provider: text('provider').notNull(),
    operation: text('operation').$type<'find' | 'verify'>().notNull(),
    domain: text('domain'),
    email: text('email'),
    outcome: text('outcome').notNull(),
    costMicros: integer('cost_micros').notNull().default(0),
    simulated: boolean('simulated').notNull().default(false),
    at: ts('at').notNull().defaultNow(),
  },
  (t) => [index('finder_calls_org_at_idx').on(t.orgId, t.at)],
);

// What the simulated table tool received (GET /admin/v1/orgs/{id}/sim/table_posts).
export const simTablePosts = pgTable(
  'sim_table_posts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    pushId: uuid('push_id').notNull(),
    leadId: uuid('lead_id').notNull(),
    url: text('url').notNull(),
    body: jsonb('body').$type<Record<string, unknown>>().notNull(),
    at: ts('at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('sim_table_posts_push_lead_uq').on(t.pushId, t.leadId)],
);
