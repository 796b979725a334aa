import { sql } from 'drizzle-orm';
import { boolean, date, index, integer, jsonb, pgTable, primaryKey, real, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { campaigns } from './leads';
import { clients, organizations } from './orgs';

// Sending infrastructure (issue 17): a client's domain rule and workspace choice, its domains, its mailboxes and their
// daily health, the infrastructure snapshot, and what the simulated registrar, DNS and mailbox provider did.

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** The spec's six statuses (agency-tools-and-bridge.md §2). */
export type MailboxStatus = 'warming' | 'ramping' | 'active' | 'reserve' | 'parked' | 'retired';
/** `ordered`: the buy step ran but the registrar has not confirmed; `bought` → `dns_ready` after the DNS step. */
export type DomainStatus = 'ordered' | 'bought' | 'dns_ready' | 'failed';

// One row per client: the domain rule (set_domain_rule; each field given replaces that field) and the domain
// workspace mailboxes are created in (set_domain_workspace). A client without a row has the defaults.
export const domainRules = pgTable('domain_rules', {
  clientId: uuid('client_id')
    .primaryKey()
    .references(() => clients.id, { onDelete: 'cascade' }),
  orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
  stems: jsonb('stems').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
  // A look-alike pattern such as `get{stem}`, `{stem}hq` or `try{stem}` (one `{stem}` placeholder); null: built-in patterns.
  pattern: text('pattern'),
  tlds: jsonb('tlds').$type<string[]>().notNull().default(sql`'["com"]'::jsonb`),
  maxPriceCents: integer('max_price_cents').notNull().default(1500),
  mailboxesPerDomain: integer('mailboxes_per_domain').notNull().default(3),
  // The daily send cap of an active mailbox (the end of its ramp).
  dailyCap: integer('daily_cap').notNull().default(30),
  // Where every domain redirects (the client's website); null: no redirect.
  redirectTo: text('redirect_to'),
  // Sender names for mailboxes ("Anna Berg"); empty: names are derived from the client's name.
  senderNames: jsonb('sender_names').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
  // The chosen domain workspace at the mailbox provider (list_domain_workspaces ids); null: none chosen yet.
  workspaceId: text('workspace_id'),
  workspaceName: text('workspace_name'),
  updatedBy: text('updated_by'),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const domains = pgTable(
  'domains',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    clientId: uuid('client_id').notNull().references(() => clients.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    status: text('status').$type<DomainStatus>().notNull().default('ordered'),
    priceCents: integer('price_cents').notNull(),
    // The plan step that bought it: the registrar order reference, so a repeated step never buys twice.
    orderRef: text('order_ref').notNull(),
    registrarOrderId: text('registrar_order_id'),
    // On a blocklist (the health port says so); a listed domain's mailboxes are failing.
    listed: boolean('listed').notNull().default(false),
    redirectTo: text('redirect_to'),
    boughtAt: ts('bought_at'),
    dnsReadyAt: ts('dns_ready_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('domains_org_name_uq').on(t.orgId, t.name), uniqueIndex('domains_order_ref_uq').on(t.orgId, t.orderRef), index('domains_client_idx').on(t.clientId)],
);

export const mailboxes = pgTable(
  'mailboxes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    clientId: uuid('client_id').notNull().references(() => clients.id, { onDelete: 'cascade' }),
    domainId: uuid('domain_id').notNull().references(() => domains.id, { onDelete: 'cascade' }),
    address: text('address').notNull(),
    displayName: text('display_name').notNull(),
    workspaceId: text('workspace_id').notNull(),
    // The provider's id of the mailbox (the user id at Google Workspace, the simulated id).
    providerId: text('provider_id').notNull(),
    // The mailbox's password or app password from the provider, AES-GCM under ENCRYPTION_KEY (secrets:rotate).
    credentialEnc: text('credential_enc'),
    // The plan step that created it (idempotency: a repeated create_mailboxes step finds its rows).
    createdByStep: text('created_by_step').notNull(),
    status: text('status').$type<MailboxStatus>().notNull().default('warming'),
    // The day (organization timezone) the current status began: warming day N, ramp day N are counted from it.
    statusSince: date('status_since', { mode: 'string' }).notNull(),
    // The ramp's first week cap: 10 normally, 5 after an unpark (agency-tools-and-bridge.md §8).
    rampStartCap: integer('ramp_start_cap').notNull().default(10),
    // What it may send today (0 while warming, parked or retired); the daily tick sets it.
    dailyCap: integer('daily_cap').notNull().default(0),
    // Why it was parked (`bounce_rate`, `domain_listed`, `disconnected`), and when.
    parkReason: text('park_reason'),
    parkedAt: ts('parked_at'),
    // The mailbox it replaced (a reserve swapped in by auto-protect).
    replacedMailboxId: uuid('replaced_mailbox_id'),
    connected: boolean('connected').notNull().default(true),
    // The 7-day bounce rate the last tick saw (0..1), for get_mailbox_lifecycle without re-reading the days.
    bounceRate7d: real('bounce_rate_7d').notNull().default(0),
    lastTickDay: date('last_tick_day', { mode: 'string' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('mailboxes_address_uq').on(t.orgId, t.address),
    index('mailboxes_client_status_idx').on(t.clientId, t.status),
    index('mailboxes_org_idx').on(t.orgId),
    index('mailboxes_domain_idx').on(t.domainId),
  ],
);

// Which campaigns a mailbox sends for (attach_mailboxes). A reserve is a warmed mailbox with no row here.
export const mailboxCampaigns = pgTable(
  'mailbox_campaigns',
  {
    mailboxId: uuid('mailbox_id')
      .notNull()
      .references(() => mailboxes.id, { onDelete: 'cascade' }),
    campaignId: uuid('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    attachedAt: ts('attached_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.mailboxId, t.campaignId] }), index('mailbox_campaigns_campaign_idx').on(t.campaignId)],
);

// One row per mailbox and day from the warm-up/health port: what it sent, what bounced, whether it was connected.
export const mailboxHealthDays = pgTable(
  'mailbox_health_days',
  {
    mailboxId: uuid('mailbox_id')
      .notNull()
      .references(() => mailboxes.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    orgId: uuid('org_id').notNull(),
    sent: integer('sent').notNull().default(0),
    bounced: integer('bounced').notNull().default(0),
    connected: boolean('connected').notNull().default(true),
    domainListed: boolean('domain_listed').notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.mailboxId, t.day] })],
);

// The infrastructure snapshot per client (refreshed every 10 minutes; get_infrastructure answers from it).
export const infraSnapshots = pgTable('infra_snapshots', {
  clientId: uuid('client_id')
    .primaryKey()
    .references(() => clients.id, { onDelete: 'cascade' }),
  orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
  takenAt: ts('taken_at').notNull(),
  body: jsonb('body').$type<Record<string, unknown>>().notNull(),
});

// What the simulated registrar sold: one row per order reference (a repeated reference answers the first order).
export const simOrders = pgTable(
  'sim_orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    reference: text('reference').notNull(),
    domain: text('domain').notNull(),
    priceCents: integer('price_cents').notNull(),
    at: ts('at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('sim_orders_ref_uq').on(t.orgId, t.reference), uniqueIndex('sim_orders_domain_uq').on(t.domain)],
);

export const simDnsRecords = pgTable(
  'sim_dns_records',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    domain: text('domain').notNull(),
    type: text('type').notNull(),
    name: text('name').notNull(),
    content: text('content').notNull(),
    at: ts('at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('sim_dns_records_uq').on(t.orgId, t.domain, t.type, t.name)],
);

export const simMailboxes = pgTable(
  'sim_mailboxes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    workspaceId: text('workspace_id').notNull(),
    address: text('address').notNull(),
    displayName: text('display_name').notNull(),
    at: ts('at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('sim_mailboxes_address_uq').on(t.orgId, t.address)],
);

// Bounce rates an owner or a test injects into the simulated health port (admin), per mailbox address or domain.
export const simHealthOverrides = pgTable(
  'sim_health_overrides',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    // An address (`a@x.com`) or a domain (`x.com`).
    target: text('target').notNull(),
    bounceRate: real('bounce_rate'),
    listed: boolean('listed'),
    disconnected: boolean('disconnected'),
    at: ts('at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('sim_health_overrides_uq').on(t.orgId, t.target)],
);
