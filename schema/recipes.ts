import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { apiKeys, clients, organizations } from './orgs';

// Enrichment recipes, formulas, runs and signals (issue 15). Column values a formula writes live in the pool lead's
// `custom` object under the column key, with provenance `formula:<formula id>`.

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** A recipe's steps, validated by lib/recipes/schema.ts (the zod definition get_recipe_schema publishes). */
export type RecipeDefinition = { steps: Record<string, unknown>[] };

export const recipes = pgTable(
  'recipes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    clientId: uuid('client_id').notNull().references(() => clients.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    // The version that runs; null until a person or a plan step makes a draft live.
    liveVersion: integer('live_version'),
    // The newest draft (every change makes a new one; versions are immutable).
    draftVersion: integer('draft_version'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('recipes_client_name_uq').on(t.clientId, t.name)],
);

export const recipeVersions = pgTable(
  'recipe_versions',
  {
    recipeId: uuid('recipe_id').notNull().references(() => recipes.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    definition: jsonb('definition').$type<RecipeDefinition>().notNull(),
    note: text('note'),
    createdBy: text('created_by').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.recipeId, t.version] })],
);

// Starter templates (org_id null: bundled for every agency) and the agency's own saved ones.
export const recipeTemplates = pgTable(
  'recipe_templates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    definition: jsonb('definition').$type<RecipeDefinition>().notNull(),
    createdBy: text('created_by').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('recipe_templates_scope_name_uq').on(sql`coalesce(${t.orgId}, '00000000-0000-0000-0000-000000000000'::uuid)`, t.name)],
);

export type FormulaKind = 'expression' | 'lookup' | 'question';

// The agency's own formulas (the shared library is bundled code, lib/formulas/library.ts, addressed by its key).
export const formulas = pgTable(
  'formulas',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    goals: jsonb('goals').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    kind: text('kind').$type<FormulaKind>().notNull(),
    // expression: { expression }; lookup: { field }; question: { question }
    spec: jsonb('spec').$type<Record<string, unknown>>().notNull(),
    inputs: jsonb('inputs').$type<string[]>().notNull(),
    outputType: text('output_type').$type<'text' | 'number' | 'boolean' | 'url'>().notNull(),
    creditCost: integer('credit_cost').notNull().default(0),
    // request_publish_formula: waiting for review into the shared library; author shown only with opt-in.
    publishStatus: text('publish_status').$type<'private' | 'requested'>().notNull().default('private'),
    authorOptIn: boolean('author_opt_in').notNull().default(false),
    createdBy: text('created_by').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('formulas_org_name_uq').on(t.orgId, t.name)],
);

export type EnrichRunStatus = 'previewed' | 'running' | 'waiting_continue' | 'stopped' | 'done' | 'failed';

// A formula or signals run: its leads, progress and what it charged. Rounds run as queued jobs.
export const enrichRuns = pgTable(
  'enrich_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    clientId: uuid('client_id').notNull().references(() => clients.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<'formula' | 'signals'>().notNull(),
    recipeId: uuid('recipe_id'),
    // The recipe version the run was confirmed on: its rounds run that version, whatever goes live meanwhile.
    recipeVersion: integer('recipe_version'),
    // Shared library key or an own formula's id; the column the run writes.
    formulaRef: text('formula_ref'),
    columnKey: text('column_key'),
    signalKinds: jsonb('signal_kinds').$type<string[]>(),
    onlyEmpty: boolean('only_empty').notNull().default(true),
    status: text('status').$type<EnrichRunStatus>().notNull().default('running'),
    total: integer('total').notNull(),
    processed: integer('processed').notNull().default(0),
    written: integer('written').notNull().default(0),
    skipped: integer('skipped').notNull().default(0),
    credits: integer('credits').notNull().default(0),
    creditCap: integer('credit_cap').notNull(),
    keyId: uuid('key_id').references(() => apiKeys.id, { onDelete: 'set null' }),
    actor: text('actor').notNull(),
    lastError: text('last_error'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('enrich_runs_client_idx').on(t.clientId, t.createdAt)],
);

// One row per lead of a run: a round claims pending rows, so a retried job never writes or charges a lead twice.
export const enrichRunItems = pgTable(
  'enrich_run_items',
  {
    runId: uuid('run_id').notNull().references(() => enrichRuns.id, { onDelete: 'cascade' }),
    leadId: uuid('lead_id').notNull(),
    position: integer('position').notNull(),
    status: text('status').$type<'pending' | 'written' | 'skipped' | 'empty' | 'failed'>().notNull().default('pending'),
    credits: integer('credits').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.runId, t.leadId] }), index('enrich_run_items_pending_idx').on(t.runId, t.status, t.position)],
);

export type SignalKind = 'hiring' | 'funding' | 'tech_change' | 'news';

export const leadSignals = pgTable(
  'lead_signals',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    clientId: uuid('client_id').notNull().references(() => clients.id, { onDelete: 'cascade' }),
    leadId: uuid('lead_id').notNull(),
    kind: text('kind').$type<SignalKind>().notNull(),
    title: text('title').notNull(),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    source: text('source').notNull(),
    happenedOn: text('happened_on'),
    runId: uuid('run_id'),
    foundAt: ts('found_at').notNull().defaultNow(),
  },
  (t) => [index('lead_signals_client_lead_idx').on(t.clientId, t.leadId), uniqueIndex('lead_signals_lead_kind_title_uq').on(t.leadId, t.kind, t.title)],
);

// Every enrichment-port call (lookups, signals, vacancy search) with its cost; the simulation's rows are `simulated`.
export const enrichmentCalls = pgTable(
  'enrichment_calls',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    operation: text('operation').notNull(),
    domain: text('domain'),
    outcome: text('outcome').notNull(),
    costMicros: integer('cost_micros').notNull().default(0),
    simulated: boolean('simulated').notNull().default(false),
    at: ts('at').notNull().defaultNow(),
  },
  (t) => [index('enrichment_calls_org_at_idx').on(t.orgId, t.at)],
);
