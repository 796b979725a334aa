import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { poolColumns, type CustomValue } from '../../schema';
import type { Db } from '../db/types';

// Custom columns of a client's pool: whatever a table or the assistant calls a value that is none of the lead's own
// fields. Keys are snake_case so "Company Size", "companySize" and "company_size" are one column.

export type ColumnType = 'text' | 'number' | 'boolean' | 'url';
export type ColumnRow = typeof poolColumns.$inferSelect;

/** update_leads may create at most this many columns per call (agency spec §8). */
export const MAX_NEW_COLUMNS_PER_CALL = 20;
/** A pool's ceiling: an import's extra columns beyond it are not kept (a table with hundreds of columns is noise). */
export const MAX_COLUMNS_PER_CLIENT = 200;
export const MAX_KEY_LENGTH = 64;

/** Every name a pool lead already answers to: a custom column of that name would shadow it. */
export const FIXED_FIELDS = new Set([
  'id', 'lead_id', 'email', 'email_status', 'first_name', 'last_name', 'full_name', 'company', 'domain', 'website', 'title',
  'linkedin_url', 'company_linkedin_url', 'country', 'city', 'state', 'volume_band', 'volume_estimate', 'monthly_volume',
  'mail_type', 'current_sender', 'hook', 'named_account', 'sends_for_customers', 'note', 'icp_id', 'status', 'custom',
  'provenance', 'contact_check', 'created_at', 'updated_at', 'import_id', 'person_key', 'org_id', 'client_id',
]);

/** "Company Size" / "companySize" / "company-size" → company_size; null when nothing usable is left. */
export function normaliseKey(raw: string): string | null {
  const t = raw.trim();
  // camelCase splits only where nothing else separates words ("companySize"), so "LinkedIn URL" stays one word.
  const key = (/[\s_\-.]/.test(t) ? t : t.replace(/([a-z0-9])([A-Z])/g, '$1_$2'))
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/linked_in/g, 'linkedin')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, MAX_KEY_LENGTH)
    .replace(/_+$/, '');
  if (!key) return null;
  // A key must read as a name, not a number ("2024" → c_2024).
  return /^[0-9]/.test(key) ? `c_${key}`.slice(0, MAX_KEY_LENGTH) : key;
}

const URL_LIKE = /^https?:\/\/[^\s/$.?#][^\s]*$/i;
const YES_NO = new Set(['yes', 'no', 'true', 'false', 'y', 'n']);
const NUMERIC = /^-?(\d+|\d*\.\d+)$/;

export function isUrlText(v: string) {
  return URL_LIKE.test(v.trim());
}

/** The type one value suggests. */
function typeOfValue(v: CustomValue): ColumnType | null {
  if (v === null) return null;
  if (typeof v === 'boolean') return 'boolean';
  if (typeof v === 'number') return 'number';
  const t = v.trim();
  if (YES_NO.has(t.toLowerCase())) return 'boolean';
  if (NUMERIC.test(t.replace(/,/g, ''))) return 'number';
  if (isUrlText(t)) return 'url';
  return 'text';
}

/** The type a column's values suggest: one type for all of them, else text (text holds anything). */
export function inferType(values: readonly CustomValue[]): ColumnType {
  const types = new Set(values.map(typeOfValue).filter((t): t is ColumnType => t !== null));
  return types.size === 1 ? [...types][0] : 'text';
}

/** A value as a column of this type stores it, or undefined when it does not fit (a typed column stays typed). */
export function coerceTo(type: ColumnType, v: CustomValue): CustomValue | undefined {
  if (v === null) return null;
  if (type === 'text') return typeof v === 'string' ? v : String(v);
  if (type === 'number') {
    if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
    if (typeof v === 'string' && NUMERIC.test(v.trim().replace(/,/g, ''))) return Number(v.trim().replace(/,/g, ''));
    return undefined;
  }
  if (type === 'boolean') {
    if (typeof v === 'boolean') return v;
    const t = String(v).trim().toLowerCase();
    if (t === 'yes' || t === 'true' || t === 'y') return true;
    if (t === 'no' || t === 'false' || t === 'n') return false;
    return undefined;
  }
  return typeof v === 'string' && isUrlText(v) ? v.trim() : undefined;
}

export const ColumnSchema = z.object({
  key: z.string(),
  type: z.enum(['text', 'number', 'boolean', 'url']).describe('boolean = yes/no'),
  use_for_writing: z.boolean().describe('a person switched it on: the writer may use its values in mails'),
  created_by: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ColumnView = z.infer<typeof ColumnSchema>;

export const columnView = (c: ColumnRow): ColumnView => ({
  key: c.key,
  type: c.type,
  use_for_writing: c.useForWriting,
  created_by: c.createdBy,
  created_at: c.createdAt.toISOString(),
  updated_at: c.updatedAt.toISOString(),
});

/** The client's columns by key. */
export async function columnsOf(db: Db, orgId: string, clientId: string): Promise<Map<string, ColumnRow>> {
  const found = await db.select().from(poolColumns).where(and(eq(poolColumns.clientId, clientId), eq(poolColumns.orgId, orgId)));
  return new Map(found.map((c) => [c.key, c]));
}

/** Adds columns; one that appeared meanwhile (a concurrent import) keeps its first type. */
export async function addColumns(db: Db, a: { orgId: string; clientId: string; actor: string; now: Date; columns: { key: string; type: ColumnType }[] }) {
  if (a.columns.length === 0) return;
  await db
    .insert(poolColumns)
    // Sorted: two imports adding the same columns lock them in one order and never deadlock.
    .values([...a.columns].sort((x, y) => (x.key < y.key ? -1 : 1)).map((c) => ({ orgId: a.orgId, clientId: a.clientId, key: c.key, type: c.type, createdBy: a.actor, createdAt: a.now, updatedAt: a.now })))
    .onConflictDoNothing();
}

/** Counts the client's columns (the ceiling check of an import). */
export async function countColumns(db: Db, clientId: string): Promise<number> {
  const [{ n }] = await db.select({ n: sql<number>`count(*)::int` }).from(poolColumns).where(eq(poolColumns.clientId, clientId));
  return Number(n);
}
