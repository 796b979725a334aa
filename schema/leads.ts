import { sql } from 'drizzle-orm';
import { date, index, integer, jsonb, pgTable, real, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { clients, organizations } from './orgs';

export const campaigns = pgTable(
  'campaigns',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    clientId: uuid('client_id').references(() => clients.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    // The sending tool and its own id of this campaign: inbound reply webhooks are matched to the campaign by them
    // (two tools may both have a campaign 42).
    provider: text('provider').$type<'instantly' | 'smartlead' | 'emailbison' | 'generic'>(),
    providerCampaignId: text('provider_campaign_id'),
    status: text('status').$type<'active' | 'paused' | 'completed'>().notNull().default('active'),
    sent: integer('sent').notNull().default(0),
    opened: integer('opened').notNull().default(0),
    // Prospects who replied (distinct leads), kept in the ingestion transaction.
    replied: integer('replied').notNull().default(0),
    statsLastSyncedAt: timestamp('stats_last_synced_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    index('campaigns_org_idx').on(t.orgId, t.createdAt),
    uniqueIndex('campaigns_org_provider_campaign_uq').on(t.orgId, t.provider, t.providerCampaignId).where(sql`${t.providerCampaignId} is not null`),
  ],
);

export type Deal = { value: number; currency: string };
export type NextAction = { date: string; note: string };

// One lead per prospect email + campaign. Its id is stable across new replies (the CRM API exposes it).
export const leads = pgTable(
  'leads',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    campaignId: uuid('campaign_id').notNull().references(() => campaigns.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    name: text('name'),
    classification: text('classification'),
    replyCount: integer('reply_count').notNull().default(0),
    lastReplyAt: timestamp('last_reply_at', { withTimezone: true, mode: 'date' }),
    // The conversation's latest message (a reply in or a message out), kept where thread_messages are written: the
    // portal's newest-activity-first list walks an index instead of sorting every lead by a subquery.
    lastActivityAt: timestamp('last_activity_at', { withTimezone: true, mode: 'date' }),
    notes: text('notes'),
    phase: text('phase').notNull().default('new'),
    deal: jsonb('deal').$type<Deal>(),
    nextAction: jsonb('next_action').$type<NextAction>(),
    crmUpdatedAt: timestamp('crm_updated_at', { withTimezone: true, mode: 'date' }),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('leads_campaign_email_uq').on(t.campaignId, t.email),
    // Serves the lead list's newest-first page (scanned backwards) and its per-org count.
    index('leads_org_last_reply_id_idx').on(t.orgId, t.lastReplyAt, t.id),
    // CRM sync: keyset pages in id order, `updated_since` ranges, and the per-org latest stamp (lib/crm/change_clock).
    index('leads_org_id_idx').on(t.orgId, t.id),
    index('leads_org_updated_idx').on(t.orgId, t.updatedAt),
    // A prospect across the organization's campaigns: opt-outs cancel their follow-ups, never-mail checks find them.
    index('leads_org_email_idx').on(t.orgId, t.email),
    // The client portal's lead list (lib/portal/leads.ts): newest activity first, ties by id.
    index('leads_org_activity_idx').on(t.orgId, t.lastActivityAt.desc().nullsLast(), t.id.desc()),
  ],
);

export const replies = pgTable(
  'replies',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    leadId: uuid('lead_id').notNull().references(() => leads.id, { onDelete: 'cascade' }),
    campaignId: uuid('campaign_id').notNull().references(() => campaigns.id, { onDelete: 'cascade' }),
    fromEmail: text('from_email').notNull(),
    fromName: text('from_name'),
    subject: text('subject'),
    // The message as received, as text (HTML converted); `body_html` keeps the HTML part when there was one.
    body: text('body').notNull(),
    bodyHtml: text('body_html'),
    // The prospect's own text with quoted earlier thread removed (queue listing, classification).
    bodyStripped: text('body_stripped').notNull(),
    // Where the reply came from and what answering it in the prospect's thread needs (null for admin ingestion).
    sourceId: uuid('source_id'),
    // The mailbox the prospect wrote to: our answer goes out from it.
    toEmail: text('to_email'),
    rfcMessageId: text('rfc_message_id'),
    inReplyTo: text('in_reply_to'),
    references: text('references'),
    // Opaque to all but that provider's sending adapter (lib/inbound/types.ts `provider_ref`).
    providerRef: jsonb('provider_ref').$type<Record<string, string | number | null>>(),
    classification: text('classification'),
    classificationConfidence: real('classification_confidence'),
    receivedAt: timestamp('received_at', { withTimezone: true, mode: 'date' }).notNull(),
    status: text('status').$type<'unanswered' | 'queued' | 'sent' | 'skipped'>().notNull().default('unanswered'),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    index('replies_lead_idx').on(t.leadId, t.receivedAt),
    index('replies_org_status_idx').on(t.orgId, t.status),
    // GET /v1/replies newest first, and the briefs' replies of a period.
    index('replies_org_received_idx').on(t.orgId, t.receivedAt, t.id),
  ],
);

// The conversation of a lead in time order: its replies, what we sent, campaign messages when known.
export const threadMessages = pgTable(
  'thread_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    leadId: uuid('lead_id').notNull().references(() => leads.id, { onDelete: 'cascade' }),
    replyId: uuid('reply_id'),
    role: text('role').$type<'reply' | 'outbound'>().notNull(),
    content: text('content').notNull(),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('thread_messages_lead_idx').on(t.leadId, t.at)],
);

export const reports = pgTable(
  'reports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    clientId: uuid('client_id').references(() => clients.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    briefType: text('brief_type').$type<'friday' | 'monday'>().notNull(),
    targetRole: text('target_role').notNull(),
    executiveSummary: text('executive_summary').notNull(),
    summaryBullets: jsonb('summary_bullets').$type<string[]>().notNull(),
    statsSnapshot: jsonb('stats_snapshot').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    periodStart: date('period_start', { mode: 'string' }).notNull(),
    periodEnd: date('period_end', { mode: 'string' }).notNull(),
    generatedAt: timestamp('generated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('reports_org_idx').on(t.orgId, t.generatedAt)],
);
