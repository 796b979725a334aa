import type { Applied, Preview, TwoStepDef } from '../agency/confirm';
import type { AgencyCall } from '../agency/operation';
import type { Db } from '../db/types';
import { importLeadRows, type ImportContext, type ImportCounts, type ImportTarget, type ImportView, type RowOutcome } from './import';
import { findImportView } from './imports_view';

// import_leads (agency-operator.md §4): `mode: preview` is the dry run (stores nothing, issues no token: there is
// nothing to confirm); `mode: commit` is two steps through the confirm mechanism, whose preview is the same dry run.

export type ImportLeadsInput = {
  client_id: string;
  rows: Record<string, unknown>[];
  mode: 'preview' | 'commit';
  import_id?: string;
  name?: string;
  confirm_token?: string;
};

export const EXAMPLE_ROWS = 10;

export type ImportLeadsPreview = { counts: ImportCounts; examples: RowOutcome[]; import: ImportView | null; rows: number };
export type ImportLeadsResult = { import_id: string; import: ImportView; counts: ImportCounts; examples: RowOutcome[] };

/** A few row outcomes worth reading: every kind of refusal first (with its reason), then what was added. */
export function examplesOf(rows: readonly RowOutcome[]): RowOutcome[] {
  const refused = rows.filter((r) => r.outcome !== 'added' && r.outcome !== 'waiting_for_email');
  const stored = rows.filter((r) => r.outcome === 'added' || r.outcome === 'waiting_for_email');
  return [...refused, ...stored].slice(0, EXAMPLE_ROWS).sort((a, b) => a.index - b.index);
}

const contextOf = (call: AgencyCall, input: ImportLeadsInput): ImportContext => ({
  services: call.services,
  orgId: call.auth.orgId,
  clientId: input.client_id,
  actor: call.actor,
  now: call.now,
});

const targetOf = (input: ImportLeadsInput): ImportTarget => ({ kind: 'tool', importId: input.import_id, name: input.name });

async function dryRun(call: AgencyCall, input: ImportLeadsInput, db: Db): Promise<{ preview: ImportLeadsPreview; outcomes: RowOutcome[] }> {
  const ctx = contextOf(call, input);
  const r = await importLeadRows(db, ctx, input.rows, targetOf(input), { dryRun: true });
  // A later chunk's preview shows the import's totals so far beside what this chunk would add.
  const existing = input.import_id ? await findImportView(db, { orgId: ctx.orgId, clientId: ctx.clientId, importId: input.import_id }) : null;
  return { preview: { counts: r.counts, examples: examplesOf(r.rows), import: existing, rows: input.rows.length }, outcomes: r.rows };
}

/** mode preview: the dry run alone. */
export async function previewImport(call: AgencyCall, input: ImportLeadsInput) {
  return { mode: 'preview' as const, ...(await dryRun(call, input, call.services.db)).preview };
}

async function preview(call: AgencyCall, input: ImportLeadsInput, db: Db): Promise<Preview<ImportLeadsPreview>> {
  const { preview: p, outcomes } = await dryRun(call, input, db);
  // What each row would become: a row another import took meanwhile changes it, and the confirm is stale.
  return { preview: p, state: outcomes.map((o) => o.outcome), credits: 0 };
}

async function apply(call: AgencyCall, input: ImportLeadsInput, tx: Db): Promise<Applied<ImportLeadsResult>> {
  const r = await importLeadRows(tx, contextOf(call, input), input.rows, targetOf(input));
  const imp = r.import!;
  return {
    result: { import_id: imp.id, import: imp, counts: r.counts, examples: examplesOf(r.rows) },
    audit: { action: 'leads.imported', target: `client:${input.client_id}`, detail: { import_id: imp.id, name: imp.name, rows: input.rows.length, counts: r.counts } },
  };
}

/** mode commit: two steps; the confirm stores the rows and adds this chunk's counts to the import. */
export const commitImport: TwoStepDef<ImportLeadsInput, ImportLeadsPreview, ImportLeadsResult> = { tool: 'import_leads', preview, apply };
