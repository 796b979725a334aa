import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, numeric, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { clients, organizations } from './orgs';

// Plans, their steps and log, agreements, booked meetings and the simulated clock (issue 16).

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export type PlanStatus = 'waiting_approval' | 'approved' | 'paused' | 'dismissed' | 'done' | 'failed';
export type StepStatus = 'waiting' | 'approved' | 'scheduled' | 'running' | 'done' | 'failed' | 'undone';

export const plans = pgTable(
  'plans',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    clientId: uuid('client_id').notNull().references(() => clients.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    status: text('status').$type<PlanStatus>().notNull().default('waiting_approval'),
    // Moves on every change, so a confirm token issued before a change is stale.
    revision: integer('revision').notNull().default(1),
    approvalScope: text('approval_scope').$type<'all' | 'free_steps'>(),
    approvedAt: ts('approved_at'),
    approvedBy: text('approved_by'),
    dismissedUntil: ts('dismissed_until'),
    // The latest dry run: ok, and one sentence per problem.
    dryRun: jsonb('dry_run').$type<{ ok: boolean; problems: string[]; at: string } | null>(),
    createdBy: text('created_by').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('plans_org_created_idx').on(t.orgId, t.createdAt),
    // A client's one open plan: propose_action adds to it.
    uniqueIndex('plans_client_open_uq').on(t.clientId).where(sql`${t.status} in ('waiting_approval', 'approved', 'paused', 'dismissed')`),
  ],
);

export const planSteps = pgTable(
  'plan_steps',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    planId: uuid('plan_id').notNull().references(() => plans.id, { onDelete: 'cascade' }),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    clientId: uuid('client_id').notNull(),
    position: integer('position').notNull(),
    kind: text('kind').notNull(),
    // Offset in days from approval; runs at 08:00 in the organization's timezone on that day.
    day: integer('day').notNull().default(0),
    params: jsonb('params').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    status: text('status').$type<StepStatus>().notNull().default('waiting'),
    // From the step registry at proposal time, so a plan shows what it buys and what can be undone.
    buys: boolean('buys').notNull().default(false),
    undoable: boolean('undoable').notNull().default(true),
    credits: integer('credits').notNull().default(0),
    dueAt: ts('due_at'),
    // A consumer leases a step before running it; an expired lease lets the sweeper hand it to another.
    leaseUntil: ts('lease_until'),
    attempts: integer('attempts').notNull().default(0),
    result: jsonb('result').$type<Record<string, unknown> | null>(),
    error: text('error'),
    ranAt: ts('ran_at'),
    undoneAt: ts('undone_at'),
    createdBy: text('created_by').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('plan_steps_plan_idx').on(t.planId, t.position), index('plan_steps_due_idx').on(t.status, t.dueAt)],
);

export const planLog = pgTable(
  'plan_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    planId: uuid('plan_id').notNull().references(() => plans.id, { onDelete: 'cascade' }),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    stepId: uuid('step_id'),
    at: ts('at').notNull().defaultNow(),
    actor: text('actor').notNull(),
    action: text('action').notNull(),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
  },
  (t) => [index('plan_log_plan_at_idx').on(t.planId, t.at)],
);

export type AgreementKind = 'new_prospects_per_workday' | 'meetings_per_month' | 'replies_per_month' | 'custom';

export const agreements = pgTable(
  'agreements',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    clientId: uuid('client_id').notNull().references(() => clients.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<AgreementKind>().notNull(),
    label: text('label'),
    target: numeric('target', { mode: 'number' }).notNull(),
    // YYYY-MM-DD (organization timezone).
    start: text('start').notNull(),
    catchUp: text('catch_up').$type<'spread' | 'drop'>().notNull().default('spread'),
    active: boolean('active').notNull().default(true),
    createdBy: text('created_by').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    replacedAt: ts('replaced_at'),
  },
  (t) => [
    // One active agreement per kind (per label for custom ones): set_agreement replaces it.
    uniqueIndex('agreements_client_kind_active_uq').on(t.clientId, t.kind, sql`coalesce(${t.label}, '')`).where(sql`${t.active}`),
  ],
);

// A meeting booked with a prospect (from a hot reply): what meetings_per_month counts.
export const meetings = pgTable(
  'meetings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    clientId: uuid('client_id').notNull().references(() => clients.id, { onDelete: 'cascade' }),
    leadId: uuid('lead_id').notNull(),
    replyId: uuid('reply_id'),
    bookedAt: ts('booked_at').notNull(),
    meetingAt: ts('meeting_at'),
    createdBy: text('created_by').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('meetings_lead_uq').on(t.leadId), index('meetings_client_booked_idx').on(t.clientId, t.bookedAt)],
);

// CLOCK=sim: the one simulated "now", moved only by POST /admin/v1/sim/clock.
export const simClock = pgTable('sim_clock', {
  id: text('id').primaryKey().default('clock'),
  now: ts('now').notNull(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});
