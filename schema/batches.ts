import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { campaigns } from './leads';
import { clients, organizations } from './orgs';
import { planSteps } from './plans';

// The Studio engine's daily loop (issue 18): batches of pool leads written and reviewed, learned rules mined from
// review edits, and Studio campaigns that push approved batches through the sequencer port.

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** agency-operator.md §4: the batch statuses. */
export type BatchStatus = 'allocated' | 'writing' | 'written' | 'approved' | 'pushing' | 'pushed' | 'skipped';
export type ReviewStatus = 'pending' | 'approved' | 'rejected';

/**
 * Where a written sentence comes from (spec: "every sentence carries its source"). `ref` names it: the field name
 * (`hook`, `custom.x`), the playbook version, the docs section, the learned rule id, the sequence step, or the actor
 * of a review edit. `null` = the writer could not source it: review_approve refuses with `source_missing`.
 */
export type SentenceSource = { kind: 'field' | 'playbook' | 'docs' | 'rule' | 'sequence' | 'edit'; ref: string };
export type WrittenSentence = { text: string; source: SentenceSource | null };
export type WrittenMail = { step: number; subject: string | null; delay_days: number; sentences: WrittenSentence[]; body: string };

export const batches = pgTable(
  'batches',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    clientId: uuid('client_id').notNull().references(() => clients.id, { onDelete: 'cascade' }),
    status: text('status').$type<BatchStatus>().notNull().default('allocated'),
    // What composed it: a saved segment and/or the inline filter (lib/pool/filters LeadFilter), and the size asked.
    segmentId: uuid('segment_id'),
    filter: jsonb('filter').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    size: integer('size').notNull(),
    // The sequence version the mails were written against (null before writing).
    sequenceVersion: integer('sequence_version'),
    // Moves on every change (write, review, approve), so a confirm token issued before it is stale.
    revision: integer('revision').notNull().default(1),
    approvedBy: text('approved_by'),
    approvedAt: ts('approved_at'),
    createdBy: text('created_by').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('batches_client_created_idx').on(t.clientId, t.createdAt),
    index('batches_org_idx').on(t.orgId),
  ],
);

export const batchLeads = pgTable(
  'batch_leads',
  {
    batchId: uuid('batch_id')
      .notNull()
      .references(() => batches.id, { onDelete: 'cascade' }),
    poolLeadId: uuid('pool_lead_id').notNull(),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    clientId: uuid('client_id').notNull(),
    position: integer('position').notNull(),
    review: text('review').$type<ReviewStatus>().notNull().default('pending'),
    // The written mails (null until start_writing wrote this lead), each sentence with its source.
    mails: jsonb('mails').$type<WrittenMail[] | null>(),
    // The active learned rules the writing used (their ids), so a rule's citation can be traced.
    rulesUsed: jsonb('rules_used').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    writtenAt: ts('written_at'),
    // How many times this lead was written (1 = once; more = rewrites).
    writes: integer('writes').notNull().default(0),
    reviewedBy: text('reviewed_by'),
    reviewedAt: ts('reviewed_at'),
    rejectReason: text('reject_reason'),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.batchId, t.poolLeadId] }), index('batch_leads_lead_idx').on(t.poolLeadId), index('batch_leads_batch_pos_idx').on(t.batchId, t.position)],
);

// Every paid writing round of a batch: the rewrite limit (spec §8) sums `credits` of kind `rewrite` over 14 days.
export const batchWrites = pgTable(
  'batch_writes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    batchId: uuid('batch_id')
      .notNull()
      .references(() => batches.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<'write' | 'rewrite'>().notNull(),
    leads: integer('leads').notNull(),
    credits: integer('credits').notNull(),
    // Who confirmed: the key actor, or the person who approved the plan step that named the cost.
    confirmedBy: text('confirmed_by').notNull(),
    planStepId: uuid('plan_step_id'),
    at: ts('at').notNull().defaultNow(),
  },
  (t) => [index('batch_writes_batch_at_idx').on(t.batchId, t.at)],
);

// What a person changed in review (review_edit_mail): the evidence learned rules are mined from.
export const reviewEdits = pgTable(
  'review_edits',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    clientId: uuid('client_id').notNull(),
    batchId: uuid('batch_id').notNull(),
    poolLeadId: uuid('pool_lead_id').notNull(),
    step: integer('step').notNull(),
    before: jsonb('before').$type<WrittenMail>().notNull(),
    after: jsonb('after').$type<WrittenMail>().notNull(),
    by: text('by').notNull(),
    at: ts('at').notNull().defaultNow(),
  },
  (t) => [index('review_edits_client_at_idx').on(t.clientId, t.at)],
);

export type LearnedRuleEvidence = { edit_id: string; batch_id: string; lead_id: string; before: string; after: string };

// A rule mined from review edits: `suggested` until activate_learned_rule makes it `active` (cited by the writer).
export const learnedRules = pgTable(
  'learned_rules',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    clientId: uuid('client_id').notNull().references(() => clients.id, { onDelete: 'cascade' }),
    // Stable identity of what the rule says (kind + normalized argument), so re-mining adds evidence, not rules.
    key: text('key').notNull(),
    kind: text('kind').notNull(),
    rule: text('rule').notNull(),
    evidence: jsonb('evidence').$type<LearnedRuleEvidence[]>().notNull().default(sql`'[]'::jsonb`),
    status: text('status').$type<'suggested' | 'active'>().notNull().default('suggested'),
    activatedBy: text('activated_by'),
    activatedAt: ts('activated_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('learned_rules_client_key_uq').on(t.clientId, t.key)],
);

export type StudioCampaignStatus = 'proposed' | 'scheduled' | 'waiting_gate' | 'pushing' | 'pushed' | 'failed';

// An own Studio campaign: one approved batch pushed through the sequencer port by a plan step. `campaign_id` is the
// core campaign its replies are ingested into (classification, leads, lead.replied).
export const studioCampaigns = pgTable(
  'studio_campaigns',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    clientId: uuid('client_id').notNull().references(() => clients.id, { onDelete: 'cascade' }),
    batchId: uuid('batch_id')
      .notNull()
      .references(() => batches.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    status: text('status').$type<StudioCampaignStatus>().notNull().default('proposed'),
    planStepId: uuid('plan_step_id').references(() => planSteps.id, { onDelete: 'set null' }),
    campaignId: uuid('campaign_id').references(() => campaigns.id, { onDelete: 'set null' }),
    sequencer: text('sequencer').notNull(),
    providerCampaignId: text('provider_campaign_id'),
    mailboxes: jsonb('mailboxes').$type<{ address: string; daily_cap: number }[]>().notNull().default(sql`'[]'::jsonb`),
    pushed: integer('pushed').notNull().default(0),
    skippedNeverMail: integer('skipped_never_mail').notNull().default(0),
    lastError: text('last_error'),
    pushedAt: ts('pushed_at'),
    createdBy: text('created_by').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('studio_campaigns_batch_uq').on(t.batchId), index('studio_campaigns_client_idx').on(t.clientId, t.createdAt)],
);

// Each lead a Studio campaign pushed (or held back): the primary key is why a lead is never pushed twice.
export const studioCampaignLeads = pgTable(
  'studio_campaign_leads',
  {
    studioCampaignId: uuid('studio_campaign_id')
      .notNull()
      .references(() => studioCampaigns.id, { onDelete: 'cascade' }),
    poolLeadId: uuid('pool_lead_id').notNull(),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    outcome: text('outcome').$type<'pushed' | 'never_mail'>().notNull(),
    at: ts('at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.studioCampaignId, t.poolLeadId] }),
    // A pool lead reaches the sequencer once, whatever campaign or delivery tries again.
    uniqueIndex('studio_campaign_leads_pushed_uq').on(t.poolLeadId).where(sql`${t.outcome} = 'pushed'`),
    index('studio_campaign_leads_email_idx').on(t.orgId, t.email),
  ],
);
