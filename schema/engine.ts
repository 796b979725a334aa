import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { clients, organizations } from './orgs';

// The Studio engine (issue 18): a client's mail sequence with its versions and the last stored preview.

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * One mail of a sequence: sent `delay_days` after the previous one (the first: when the lead is pushed), only while
 * its condition holds. Templates use `{{field}}` placeholders of the pool lead (first_name, company, hook, custom.x …).
 */
export type SequenceStep = { subject: string | null; body: string; delay_days: number; condition: 'always' | 'no_reply' | 'no_positive_reply' };

// Every version of a client's sequence; the highest version is the one in force. update_sequence adds a version.
export const sequenceVersions = pgTable(
  'sequence_versions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    clientId: uuid('client_id').notNull().references(() => clients.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    steps: jsonb('steps').$type<SequenceStep[]>().notNull(),
    createdBy: text('created_by').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('sequence_versions_client_version_uq').on(t.clientId, t.version), index('sequence_versions_org_idx').on(t.orgId)],
);

// The last preview_sequence answer per client (get_sequence_preview): the version it rendered, the sample leads and
// each lead's rendered mails.
export const sequencePreviews = pgTable('sequence_previews', {
  clientId: uuid('client_id')
    .primaryKey()
    .references(() => clients.id, { onDelete: 'cascade' }),
  orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
  version: integer('version').notNull(),
  body: jsonb('body').$type<Record<string, unknown>>().notNull(),
  createdBy: text('created_by').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

// What the simulated sequencer holds (agency-operator.md §6; GET /admin/v1/orgs/{org_id}/sim/sequencer_sends): its
// campaigns, the leads pushed into them and every mail it "sent", with the outcome the simulation decided.
export const simSequencerCampaigns = pgTable(
  'sim_sequencer_campaigns',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    // The caller's idempotency reference (the Studio campaign id): ensureCampaign with it again answers this row.
    reference: text('reference').notNull(),
    name: text('name').notNull(),
    mailboxes: jsonb('mailboxes').$type<{ address: string; daily_cap: number }[]>().notNull(),
    status: text('status').$type<'active' | 'paused'>().notNull().default('active'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('sim_sequencer_campaigns_ref_uq').on(t.orgId, t.reference)],
);

export const simSequencerLeads = pgTable(
  'sim_sequencer_leads',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    campaignId: uuid('campaign_id')
      .notNull()
      .references(() => simSequencerCampaigns.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    // The lead's personalised mails ({ step, subject, body, delay_days }), as pushed.
    mails: jsonb('mails').$type<{ step: number; subject: string | null; body: string; delay_days: number }[]>().notNull(),
    fields: jsonb('fields').$type<Record<string, string | null>>().notNull(),
    // The next step to send (1-based) and the day it is due; null when the sequence ended (done, replied, bounced).
    nextStep: integer('next_step'),
    nextDay: text('next_day'),
    addedAt: ts('added_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('sim_sequencer_leads_campaign_email_uq').on(t.campaignId, t.email)],
);

export const simSequencerSends = pgTable(
  'sim_sequencer_sends',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    campaignId: uuid('campaign_id').notNull(),
    leadEmail: text('lead_email').notNull(),
    step: integer('step').notNull(),
    mailbox: text('mailbox').notNull(),
    day: text('day').notNull(),
    outcome: text('outcome').$type<'sent' | 'bounced' | 'replied'>().notNull(),
    // The reply text the simulation wrote (outcome replied), as it entered the core ingestion.
    replyBody: text('reply_body'),
    at: ts('at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('sim_sequencer_sends_uq').on(t.campaignId, t.leadEmail, t.step), index('sim_sequencer_sends_org_day_idx').on(t.orgId, t.day)],
);
