// update_leads (agency spec §2 "Manual lead enrichment"): the assistant sets a lead's enrichment fields and custom
// columns by lead_id or email. Two steps: the preview shows each lead's changes, the new columns with their types
// and the leads it does not know; the confirm writes all of it in one transaction, source `manual (agency)`.
import { and, eq, inArray, or, sql } from 'drizzle-orm';
import { poolLeads, type CustomValue, type Provenance } from '../../schema';
import { findClient } from '../agency/clients/view';
import type { Applied, Preview, TwoStepDef } from '../agency/confirm';
import type { AgencyCall } from '../agency/operation';
import type { Db } from '../db/types';
import { ApiError, type ErrorDetail } from '../errors';
import { addColumns, coerceTo, columnsOf, FIXED_FIELDS, inferType, MAX_NEW_COLUMNS_PER_CALL, normaliseKey, type ColumnType } from './columns';
import { ENRICH_FIELD_NAMES, ENRICH_FIELDS, isEnrichField, parseEnrichValue, type EnrichField } from './fixed_fields';
import { cleanEmail } from './map_row';
import { isUuid } from '../ids';

export const MAX_UPDATE_LEADS = 500;
export const MANUAL_SOURCE = 'manual (agency)';
const CUSTOM_TEXT_MAX = 2000;

export type UpdateLeadsInput = { client_id: string; leads: Record<string, unknown>[]; confirm_token?: string };

type Value = string | number | boolean | null;
type Entry = { index: number; leadId?: string; email?: string; fixed: Partial<Record<EnrichField, Value>>; custom: Record<string, CustomValue> };

export type LeadChange = { index: number; lead_id: string; email: string | null; changes: Record<string, { from: Value; to: Value }> };
export type UpdateLeadsPreview = {
  leads: LeadChange[];
  new_columns: { key: string; type: ColumnType }[];
  unknown: { index: number; lead_id?: string; email?: string }[];
  updated: number;
};
export type UpdateLeadsResult = { updated: number; leads: { id: string; changed: string[] }[]; new_columns: { key: string; type: ColumnType }[]; unknown: UpdateLeadsPreview['unknown'] };

const refuse = (problems: ErrorDetail[]) =>
  new ApiError('validation_error', `${problems[0].path}: ${problems[0].message}${problems.length > 1 ? ` (and ${problems.length - 1} more problems)` : ''}`, { details: problems.slice(0, 50) });

/** Reads the entries; every problem becomes a 400 naming `leads.<i>.<field>`. */
export function parseEntries(leads: readonly Record<string, unknown>[]): Entry[] {
  const problems: ErrorDetail[] = [];
  const entries = leads.map((raw, index) => {
    const at = (k?: string) => (k === undefined ? `leads.${index}` : `leads.${index}.${k}`);
    const e: Entry = { index, fixed: {}, custom: {} };
    const seen = new Map<string, string>();
    for (const [rawKey, v] of Object.entries(raw)) {
      if (rawKey === 'lead_id') {
        if (typeof v === 'string' && isUuid(v)) e.leadId = v.toLowerCase();
        else problems.push({ path: at(rawKey), message: 'must be the id of a lead (a UUID)' });
        continue;
      }
      if (rawKey === 'email') {
        const email = typeof v === 'string' ? cleanEmail(v) : null;
        if (email) e.email = email;
        else problems.push({ path: at(rawKey), message: 'must be an email address (it picks the lead; update_leads never changes an email)' });
        continue;
      }
      let key = normaliseKey(rawKey);
      if (!key) {
        problems.push({ path: at(rawKey), message: 'is not a usable column name' });
        continue;
      }
      if (key === 'volume_estimate') key = 'volume_band';
      const before = seen.get(key);
      if (before !== undefined) {
        problems.push({ path: at(rawKey), message: `names the same field as ${JSON.stringify(before)} (${key})` });
        continue;
      }
      seen.set(key, rawKey);
      if (isEnrichField(key)) {
        const p = parseEnrichValue(key, v);
        if (p.ok) e.fixed[key] = p.value;
        else problems.push({ path: at(rawKey), message: p.problem });
        continue;
      }
      if (FIXED_FIELDS.has(key)) {
        problems.push({
          path: at(rawKey),
          message: `${key} is not something update_leads changes (email, its verification, ids and status never are; names, company and the other imported fields come from imports); it sets ${ENRICH_FIELD_NAMES.join(', ')} and custom columns`,
        });
        continue;
      }
      if (v !== null && !['string', 'number', 'boolean'].includes(typeof v)) problems.push({ path: at(rawKey), message: 'a custom column holds text, a number, yes/no or a URL (or null to clear it)' });
      else if (typeof v === 'number' && !Number.isFinite(v)) problems.push({ path: at(rawKey), message: 'must be a finite number' });
      else if (typeof v === 'string' && v.length > CUSTOM_TEXT_MAX) problems.push({ path: at(rawKey), message: `at most ${CUSTOM_TEXT_MAX} characters` });
      else e.custom[key] = typeof v === 'string' ? v.trim() : (v as CustomValue);
    }
    if (!e.leadId && !e.email) problems.push({ path: at(), message: 'needs lead_id or email to pick the lead' });
    return e;
  });
  if (problems.length) throw refuse(problems);
  return entries;
}

/** The columns the entries need: new ones typed by their values (at most 20), existing ones checked against theirs. */
function settleColumns(entries: Entry[], known: Map<string, { type: ColumnType }>) {
  const values = new Map<string, CustomValue[]>();
  for (const e of entries) for (const [k, v] of Object.entries(e.custom)) (values.get(k) ?? values.set(k, []).get(k)!).push(v);
  const fresh = [...values.keys()].filter((k) => !known.has(k)).sort();
  if (fresh.length > MAX_NEW_COLUMNS_PER_CALL) {
    throw new ApiError('validation_error', `leads: ${fresh.length} new custom columns (${fresh.join(', ')}); at most ${MAX_NEW_COLUMNS_PER_CALL} new columns per call: send the others in a later call`, {
      body: { new_columns: fresh },
    });
  }
  const types = new Map<string, ColumnType>([...known].map(([k, c]) => [k, c.type]));
  const newColumns = fresh.map((key) => ({ key, type: inferType(values.get(key)!) }));
  for (const c of newColumns) types.set(c.key, c.type);
  const problems: ErrorDetail[] = [];
  for (const e of entries) {
    for (const [k, v] of Object.entries(e.custom)) {
      const t = types.get(k)!;
      const c = coerceTo(t, v);
      if (c === undefined) problems.push({ path: `leads.${e.index}.${k}`, message: `the column ${k} holds ${t === 'boolean' ? 'yes/no' : t === 'url' ? 'URL' : t} values` });
      else e.custom[k] = c;
    }
  }
  if (problems.length) throw refuse(problems);
  return newColumns;
}

type LeadRow = typeof poolLeads.$inferSelect;

async function findLeads(db: Db, orgId: string, clientId: string, entries: Entry[], lock: boolean) {
  const ids = [...new Set(entries.flatMap((e) => (e.leadId ? [e.leadId] : [])))];
  const emails = [...new Set(entries.flatMap((e) => (!e.leadId && e.email ? [e.email] : [])))];
  const q = db
    .select()
    .from(poolLeads)
    .where(
      and(
        eq(poolLeads.orgId, orgId),
        eq(poolLeads.clientId, clientId),
        or(ids.length ? inArray(poolLeads.id, ids) : sql`false`, emails.length ? inArray(poolLeads.email, emails) : sql`false`),
      ),
    )
    .orderBy(poolLeads.id);
  const found = lock ? await q.for('update') : await q;
  return { byId: new Map(found.map((l) => [l.id, l])), byEmail: new Map(found.filter((l) => l.email).map((l) => [l.email!, l])) };
}

/** Each known lead's merged changes (entries for one lead apply in order), only fields whose value differs. */
function changesOf(entries: Entry[], leads: Awaited<ReturnType<typeof findLeads>>) {
  const unknown: UpdateLeadsPreview['unknown'] = [];
  const changes = new Map<string, LeadChange>();
  for (const e of entries) {
    const lead = e.leadId ? leads.byId.get(e.leadId) : leads.byEmail.get(e.email!);
    if (!lead) {
      unknown.push({ index: e.index, ...(e.leadId ? { lead_id: e.leadId } : { email: e.email }) });
      continue;
    }
    const c = changes.get(lead.id) ?? { index: e.index, lead_id: lead.id, email: lead.email, changes: {} };
    changes.set(lead.id, c);
    for (const [f, to] of Object.entries(e.fixed) as [EnrichField, Value][]) {
      const from = (lead as LeadRow)[ENRICH_FIELDS[f]] as Value;
      if (from === to) delete c.changes[f];
      else c.changes[f] = { from, to };
    }
    for (const [k, to] of Object.entries(e.custom)) {
      const from = k in lead.custom ? lead.custom[k] : null;
      if (from === to && k in lead.custom) delete c.changes[`custom.${k}`];
      else c.changes[`custom.${k}`] = { from, to };
    }
  }
  return { leads: [...changes.values()], unknown };
}

async function preview(call: AgencyCall, input: UpdateLeadsInput, db: Db): Promise<Preview<UpdateLeadsPreview>> {
  const { orgId } = call.auth;
  const lock = db !== call.services.db;
  await findClient(db, orgId, input.client_id);
  const entries = parseEntries(input.leads);
  const known = await columnsOf(db, orgId, input.client_id);
  const newColumns = settleColumns(entries, known);
  const found = await findLeads(db, orgId, input.client_id, entries, lock);
  const { leads, unknown } = changesOf(entries, found);
  const answer: UpdateLeadsPreview = { leads, new_columns: newColumns, unknown, updated: leads.filter((l) => Object.keys(l.changes).length > 0).length };
  return {
    preview: answer,
    // A lead changed meanwhile (an import, the waterfall, another update) or a column that appeared: stale.
    state: { leads: [...found.byId.values(), ...found.byEmail.values()].map((l) => [l.id, l.updatedAt.toISOString()]).sort(), new_columns: newColumns },
    credits: 0,
    ...(leads.length === 0 ? { blockedBy: 'not_found' as const, blockedMessage: "none of these leads is in this client's pool" } : {}),
  };
}

async function apply(call: AgencyCall, input: UpdateLeadsInput, tx: Db, p: Preview<UpdateLeadsPreview>): Promise<Applied<UpdateLeadsResult>> {
  const { orgId } = call.auth;
  const at = call.now.toISOString();
  const mark = { source: MANUAL_SOURCE, by: call.actor, at };
  await addColumns(tx, { orgId, clientId: input.client_id, actor: call.actor, now: call.now, columns: p.preview.new_columns });
  const done: UpdateLeadsResult['leads'] = [];
  for (const l of p.preview.leads) {
    const fields = Object.keys(l.changes);
    if (fields.length === 0) continue;
    const set: Record<string, unknown> = {};
    const custom: Record<string, CustomValue> = {};
    const provenance: Provenance = {};
    for (const f of fields) {
      const to = l.changes[f].to;
      if (f.startsWith('custom.')) custom[f.slice('custom.'.length)] = to;
      else set[ENRICH_FIELDS[f as EnrichField]] = to;
      provenance[f] = mark;
    }
    await tx
      .update(poolLeads)
      .set({
        ...set,
        custom: sql`${poolLeads.custom} || ${JSON.stringify(custom)}::jsonb`,
        provenance: sql`${poolLeads.provenance} || ${JSON.stringify(provenance)}::jsonb`,
        updatedAt: call.now,
      })
      .where(and(eq(poolLeads.id, l.lead_id), eq(poolLeads.orgId, orgId), eq(poolLeads.clientId, input.client_id)));
    done.push({ id: l.lead_id, changed: fields });
  }
  return {
    result: { updated: done.length, leads: done, new_columns: p.preview.new_columns, unknown: p.preview.unknown },
    audit: {
      action: 'leads.enriched',
      target: `client:${input.client_id}`,
      detail: { updated: done.length, fields: [...new Set(done.flatMap((d) => d.changed))].sort(), new_columns: p.preview.new_columns.map((c) => c.key), unknown: p.preview.unknown.length },
    },
  };
}

export const updateLeads: TwoStepDef<UpdateLeadsInput, UpdateLeadsPreview, UpdateLeadsResult> = { tool: 'update_leads', preview, apply };
