// The one import pipeline (issue 14): CSV uploads, the import_leads tool and the table-tool bridge all come here.
// Per row: map → invalid → duplicate → already mailed → waiting for email → added; then the DNS scan of the added
// leads' domains, the ICP that sorts them, and the import's counters added in one atomic UPDATE.
import { and, eq, sql } from 'drizzle-orm';
import { leadImports, organizations, poolLeads, type CustomValue, type Provenance } from '../../schema';
import { findClient } from '../agency/clients/view';
import type { Db } from '../db/types';
import { rows as rawRows } from '../db/types';
import { notFound } from '../errors';
import type { Services } from '../services';
import type { MailScan } from '../ports/dns/port';
import { addColumns, columnsOf, inferType, MAX_COLUMNS_PER_CLIENT, type ColumnType } from './columns';
import { dayIn } from './day';
import { ENRICH_FIELDS, type EnrichField } from './fixed_fields';
import { icpOf, loadIcps } from './icp_match';
import { mapRow, type MapResult, type MappedLead } from './map_row';
import { findNeverMail } from './never_mail';

export type ImportCounts = { added: number; duplicates: number; already_mailed: number; waiting_for_email: number; invalid: number };
export type ImportTarget = { kind: 'csv' | 'tool'; importId?: string; name?: string } | { kind: 'bridge'; toolName: string };
export type ImportView = { id: string; name: string; source: string; day: string } & ImportCounts;
export type RowOutcome = { index: number; outcome: 'added' | 'duplicate' | 'already_mailed' | 'waiting_for_email' | 'invalid'; lead_id?: string; reason?: string };
export type ImportContext = { services: Services; orgId: string; clientId: string; actor: string; now: Date };

/** Rows per import_leads call (agency spec §8); the bridge sends at most 100. */
export const MAX_IMPORT_ROWS = 500;

type ImportRow = typeof leadImports.$inferSelect;
type LeadInsert = typeof poolLeads.$inferInsert;

export const emptyCounts = (): ImportCounts => ({ added: 0, duplicates: 0, already_mailed: 0, waiting_for_email: 0, invalid: 0 });

export const importView = (r: ImportRow): ImportView => ({
  id: r.id,
  name: r.name,
  source: r.source,
  day: r.day,
  added: r.added,
  duplicates: r.duplicates,
  already_mailed: r.alreadyMailed,
  waiting_for_email: r.waitingForEmail,
  invalid: r.invalid,
});

const COUNTER: Record<RowOutcome['outcome'], keyof ImportCounts> = {
  added: 'added',
  duplicate: 'duplicates',
  already_mailed: 'already_mailed',
  waiting_for_email: 'waiting_for_email',
  invalid: 'invalid',
};

const sourceOf = (t: ImportTarget) => (t.kind === 'bridge' ? `bridge:${t.toolName}` : t.kind);

/**
 * Imports rows into the client's pool. `db` is the transaction to write in (the caller opens it). dryRun: counts
 * only, nothing stored, import null. Another organization's client, or an import_id that is not one of this
 * client's csv/tool imports, is not_found.
 */
export async function importLeadRows(
  db: Db,
  ctx: ImportContext,
  rows: readonly Record<string, unknown>[],
  target: ImportTarget,
  opts: { dryRun?: boolean } = {},
): Promise<{ counts: ImportCounts; import: ImportView | null; rows: RowOutcome[] }> {
  const dryRun = Boolean(opts.dryRun);
  await findClient(db, ctx.orgId, ctx.clientId);
  const source = sourceOf(target);
  let imp = target.kind !== 'bridge' && target.importId ? await findOwnImport(db, ctx, target.importId) : null;

  const outcomes: (RowOutcome | null)[] = rows.map(() => null);
  const decide = (i: number, outcome: RowOutcome['outcome'], extra: Partial<RowOutcome> = {}) => (outcomes[i] = { index: i, outcome, ...extra });

  // 1. Map; a row that cannot be a lead is invalid.
  const mapped: (MapResult | null)[] = rows.map((r, i) => {
    if (!r || typeof r !== 'object' || Array.isArray(r)) {
      decide(i, 'invalid', { reason: 'not an object of columns' });
      return null;
    }
    const m = mapRow(r);
    if (m.invalid) decide(i, 'invalid', { reason: m.invalid });
    return m;
  });

  // 2. Duplicates inside this call: the first of a kind goes on.
  const firstEmail = new Map<string, number>();
  const firstPerson = new Map<string, number>();
  mapped.forEach((m, i) => {
    if (!m || outcomes[i]) return;
    const [seen, key] = m.lead.email ? [firstEmail, m.lead.email] : [firstPerson, m.personKey!];
    const first = seen.get(key);
    if (first !== undefined) decide(i, 'duplicate', { reason: `same ${m.lead.email ? 'email' : 'person and company'} as row ${first} of this call` });
    else seen.set(key, i);
  });

  const open = () => mapped.flatMap((m, i) => (m && !outcomes[i] ? [{ i, m }] : []));
  const emails = open().flatMap(({ m }) => (m.lead.email ? [m.lead.email] : []));
  const personKeys = open().flatMap(({ m }) => (m.lead.email ? [] : [m.personKey!]));

  // 3. Already in the pool (or in this import): duplicates; a pool lead already in an own Studio campaign counts as mailed.
  const inPool = await poolMatches(db, ctx.clientId, emails, personKeys);
  for (const { i, m } of open()) {
    const hit = m.lead.email ? inPool.byEmail.get(m.lead.email) : inPool.byPerson.get(m.personKey!);
    if (!hit) continue;
    if (hit.status === 'pushed' || hit.status === 'replied') decide(i, 'already_mailed', { reason: 'in an own Studio campaign' });
    else decide(i, 'duplicate', { reason: imp && hit.import_id === imp.id ? 'already added earlier in this import' : 'already in the pool' });
  }

  // 4. Already mailed: the never-mail list (one query for the whole chunk), the sending tool's snapshot, replies.
  const candidates = open();
  const blocked = await findNeverMail(db, { orgId: ctx.orgId, clientId: ctx.clientId, leads: candidates.map(({ m }) => ({ email: m.lead.email, domain: m.lead.domain, website: m.lead.website })) });
  const mailed = await mailedElsewhere(db, ctx, candidates.flatMap(({ m }) => (m.lead.email ? [m.lead.email] : [])));
  candidates.forEach(({ i, m }, k) => {
    const entry = blocked.get(k);
    if (entry) return void decide(i, 'already_mailed', { reason: `on the never-mail list (${entry.kind} ${entry.value})` });
    const elsewhere = m.lead.email ? mailed.get(m.lead.email) : undefined;
    if (elsewhere) decide(i, 'already_mailed', { reason: elsewhere });
  });

  // 5. What is left is added: with an email as new, without one waiting for the email waterfall.
  const toAdd = open();
  for (const { i, m } of toAdd) decide(i, m.lead.email ? 'added' : 'waiting_for_email');

  if (!dryRun) {
    imp ??= await openImport(db, ctx, target, source);
    if (toAdd.length) await insertLeads(db, ctx, imp, source, toAdd, outcomes as RowOutcome[]);
  }

  const done = outcomes as RowOutcome[];
  const counts = emptyCounts();
  for (const o of done) counts[COUNTER[o.outcome]]++;
  if (dryRun || !imp) return { counts, import: null, rows: done };
  const [updated] = await db
    .update(leadImports)
    .set({
      // Relative to the stored value: concurrent chunks and bridge posts never overwrite each other's counts.
      added: sql`${leadImports.added} + ${counts.added}`,
      duplicates: sql`${leadImports.duplicates} + ${counts.duplicates}`,
      alreadyMailed: sql`${leadImports.alreadyMailed} + ${counts.already_mailed}`,
      waitingForEmail: sql`${leadImports.waitingForEmail} + ${counts.waiting_for_email}`,
      invalid: sql`${leadImports.invalid} + ${counts.invalid}`,
      updatedAt: ctx.now,
    })
    .where(eq(leadImports.id, imp.id))
    .returning();
  return { counts, import: importView(updated), rows: done };
}

async function findOwnImport(db: Db, ctx: ImportContext, importId: string): Promise<ImportRow> {
  const [row] = await db
    .select()
    .from(leadImports)
    .where(and(eq(leadImports.id, importId), eq(leadImports.orgId, ctx.orgId), eq(leadImports.clientId, ctx.clientId)));
  // A bridge import belongs to its tool's day; a tool chunk never joins it.
  if (!row || row.source.startsWith('bridge:')) throw notFound('import');
  return row;
}

async function orgDay(db: Db, ctx: ImportContext): Promise<string> {
  const [org] = await db.select({ timezone: organizations.timezone }).from(organizations).where(eq(organizations.id, ctx.orgId));
  return dayIn(org?.timezone ?? 'UTC', ctx.now);
}

/** A new csv/tool import, or the bridge tool's import of the day (found or created; concurrent posts share it). */
async function openImport(db: Db, ctx: ImportContext, target: ImportTarget, source: string): Promise<ImportRow> {
  const day = await orgDay(db, ctx);
  const base = { orgId: ctx.orgId, clientId: ctx.clientId, source, day, createdBy: ctx.actor, createdAt: ctx.now, updatedAt: ctx.now };
  if (target.kind !== 'bridge') {
    const [row] = await db.insert(leadImports).values({ ...base, name: target.name?.trim() || `import ${day}` }).returning();
    return row;
  }
  await db
    .insert(leadImports)
    .values({ ...base, name: `${target.toolName} ${day}` })
    .onConflictDoNothing({ target: [leadImports.clientId, leadImports.source, leadImports.day], where: sql`source like 'bridge:%'` });
  const [row] = await db
    .select()
    .from(leadImports)
    .where(and(eq(leadImports.clientId, ctx.clientId), eq(leadImports.source, source), eq(leadImports.day, day)));
  return row;
}

type PoolHit = { email: string | null; person_key: string | null; status: string; import_id: string | null };

async function poolMatches(db: Db, clientId: string, emails: string[], personKeys: string[]) {
  const byEmail = new Map<string, PoolHit>();
  const byPerson = new Map<string, PoolHit>();
  if (emails.length + personKeys.length === 0) return { byEmail, byPerson };
  // A waiting lead whose email the waterfall found since keeps its person key: the same person again is a duplicate.
  const found = await rawRows<PoolHit>(
    db,
    sql`select email, person_key, status, import_id from pool_leads where client_id = ${clientId}
        and (email = any(${sql.param(emails)}::text[]) or person_key = any(${sql.param(personKeys)}::text[]))`,
  );
  for (const h of found) {
    if (h.email) byEmail.set(h.email, h);
    if (h.person_key && (!byPerson.has(h.person_key) || h.email === null)) byPerson.set(h.person_key, h);
  }
  return { byEmail, byPerson };
}

/** Addresses mailed outside the pool: the sending tool's latest snapshot and replies to this client's campaigns. */
async function mailedElsewhere(db: Db, ctx: ImportContext, emails: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (emails.length === 0) return out;
  const found = await rawRows<{ email: string; why: string }>(
    db,
    sql`select email, 'in the sending tool''s campaigns (sequencer snapshot)' as why from sequencer_snapshot_emails
          where client_id = ${ctx.clientId} and email = any(${sql.param(emails)}::text[])
        union all
        select l.email, 'replied to a campaign of this client' as why from leads l join campaigns c on c.id = l.campaign_id
          where l.org_id = ${ctx.orgId} and c.client_id = ${ctx.clientId} and l.email = any(${sql.param(emails)}::text[])`,
  );
  for (const f of found) if (!out.has(f.email)) out.set(f.email, f.why);
  return out;
}

const FIELD_NAMES: [keyof MappedLead & keyof LeadInsert, string][] = [
  ['email', 'email'],
  ['firstName', 'first_name'],
  ['lastName', 'last_name'],
  ['fullName', 'full_name'],
  ['company', 'company'],
  ['domain', 'domain'],
  ['website', 'website'],
  ['title', 'title'],
  ['linkedinUrl', 'linkedin_url'],
  ['companyLinkedinUrl', 'company_linkedin_url'],
  ['country', 'country'],
  ['city', 'city'],
  ['state', 'state'],
];

async function insertLeads(db: Db, ctx: ImportContext, imp: ImportRow, source: string, toAdd: { i: number; m: MapResult }[], outcomes: RowOutcome[]) {
  const at = ctx.now.toISOString();
  const mark = { source, by: ctx.actor, at };
  const keep = await keptColumns(db, ctx, toAdd.map(({ m }) => m.lead.custom));
  const icps = await loadIcps(db, ctx.orgId, ctx.clientId);
  const scans = await scanDomains(ctx, toAdd.map(({ m }) => m.lead));

  const values: LeadInsert[] = toAdd.map(({ m }) => {
    const l = m.lead;
    const provenance: Provenance = {};
    const row: LeadInsert = { orgId: ctx.orgId, clientId: ctx.clientId, importId: imp.id, personKey: m.personKey, createdAt: ctx.now, updatedAt: ctx.now };
    for (const [prop, name] of FIELD_NAMES) {
      if (l[prop] === null) continue;
      (row as Record<string, unknown>)[prop] = l[prop];
      provenance[name] = mark;
    }
    for (const [name, v] of Object.entries(l.enrich) as [EnrichField, string | number | boolean][]) {
      (row as Record<string, unknown>)[ENRICH_FIELDS[name]] = v;
      provenance[name] = mark;
    }
    const scan = l.domain ? scans.get(l.domain) : undefined;
    if (scan) {
      const dns = { source: 'dns', by: 'system', at };
      if (row.mailType == null) (row.mailType = scan.mail_type), (provenance.mail_type = dns);
      if (row.currentSender == null && scan.current_sender) (row.currentSender = scan.current_sender), (provenance.current_sender = dns);
    }
    const custom: Record<string, CustomValue> = {};
    for (const [k, v] of Object.entries(l.custom)) {
      if (!keep.has(k)) continue;
      custom[k] = v;
      provenance[`custom.${k}`] = mark;
    }
    row.custom = custom;
    row.provenance = provenance;
    row.status = l.email ? 'new' : 'waiting_for_email';
    row.icpId = icpOf(icps, { country: l.country, title: l.title, company: l.company, hook: (row.hook as string) ?? null, note: (row.note as string) ?? null, volumeBand: (row.volumeBand as string) ?? null });
    return row;
  });

  // The unique indexes decide: a row a concurrent call stored first is not returned, and counts as a duplicate.
  // Inserted in one order (by identity) so two imports sharing rows wait for each other instead of deadlocking.
  const identity = (v: LeadInsert) => (v.email ? `e:${v.email}` : `p:${v.personKey}`);
  values.sort((x, y) => (identity(x) < identity(y) ? -1 : identity(x) > identity(y) ? 1 : 0));
  const stored = await db.insert(poolLeads).values(values).onConflictDoNothing().returning({ id: poolLeads.id, email: poolLeads.email, personKey: poolLeads.personKey });
  const byEmail = new Map(stored.filter((s) => s.email).map((s) => [s.email!, s.id]));
  const byPerson = new Map(stored.filter((s) => !s.email).map((s) => [s.personKey!, s.id]));
  for (const { i, m } of toAdd) {
    const id = m.lead.email ? byEmail.get(m.lead.email) : byPerson.get(m.personKey!);
    if (id) outcomes[i].lead_id = id;
    else outcomes[i] = { index: i, outcome: 'duplicate', reason: 'added by a concurrent import' };
  }
}

/** Custom keys the pool keeps: known columns, and new ones (typed by their values) up to the client's ceiling. */
async function keptColumns(db: Db, ctx: ImportContext, customs: Record<string, CustomValue>[]): Promise<Set<string>> {
  const values = new Map<string, CustomValue[]>();
  for (const c of customs) for (const [k, v] of Object.entries(c)) (values.get(k) ?? values.set(k, []).get(k)!).push(v);
  if (values.size === 0) return new Set();
  const known = await columnsOf(db, ctx.orgId, ctx.clientId);
  const keep = new Set([...values.keys()].filter((k) => known.has(k)));
  const room = Math.max(0, MAX_COLUMNS_PER_CLIENT - known.size);
  const fresh: { key: string; type: ColumnType }[] = [...values.entries()]
    .filter(([k]) => !known.has(k))
    .slice(0, room)
    .map(([key, vs]) => ({ key, type: inferType(vs) }));
  await addColumns(db, { orgId: ctx.orgId, clientId: ctx.clientId, actor: ctx.actor, now: ctx.now, columns: fresh });
  for (const c of fresh) keep.add(c.key);
  return keep;
}

/** MX/SPF of the leads' domains that still lack a mail type or sender; a failed lookup leaves the lead as it is. */
async function scanDomains(ctx: ImportContext, leads: MappedLead[]): Promise<Map<string, MailScan>> {
  const domains = [...new Set(leads.filter((l) => l.domain && (l.enrich.mail_type === undefined || l.enrich.current_sender === undefined)).map((l) => l.domain!))];
  if (domains.length === 0) return new Map();
  try {
    return await ctx.services.studio.dns.scan(domains);
  } catch (err) {
    ctx.services.log.warn('dns scan failed', { error: err instanceof Error ? err.message : String(err) });
    return new Map();
  }
}
