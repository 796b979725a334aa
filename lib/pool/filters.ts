import { and, asc, eq, ilike, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { poolLeads, type PoolLeadStatus } from '../../schema';
import { boolArg, idArg, intArg } from '../agency/args';
import { notContactedWhere } from './not_contacted';

export const POOL_STATUSES = ['new', 'waiting_for_email', 'in_batch', 'pushed', 'replied', 'removed'] as const satisfies readonly PoolLeadStatus[];
export const VOLUME_BANDS = ['high', 'medium', 'low'] as const;
type Band = (typeof VOLUME_BANDS)[number];

/** `volume_band_min`: a band and every band above it (high > medium > low). */
const BANDS_AT_LEAST: Record<Band, Band[]> = { high: ['high'], medium: ['high', 'medium'], low: ['high', 'medium', 'low'] };

/** One text or several (a GET query repeats the name: `country=DE&country=AT`; a tool passes an array). */
const oneOrMany = (item: z.ZodString, max: number) =>
  z.union([item, z.array(item).min(1).max(max)]).transform((v) => (Array.isArray(v) ? v : [v]));

/**
 * The filters of list_leads, which a segment saves by name (agency spec §4). Every filter narrows (AND); none given
 * is the whole pool without removed leads.
 */
export const leadFilterShape = {
  icp_id: idArg('ICP (list_icps)').optional().describe('only leads matched to this ICP'),
  not_contacted: boolArg()
    .optional()
    .describe(
      'true: only leads still in the pool, in no own Studio batch or campaign, that never replied, and not in the sending tool\'s latest campaign snapshot; each lead then carries contact_check naming the sources checked',
    ),
  country: oneOrMany(z.string().trim().min(1).max(100), 50)
    .optional()
    .describe('a country as stored on the leads (any case), or a list of them'),
  volume_band_min: z.enum(VOLUME_BANDS).optional().describe('this volume band or above: medium means medium or high'),
  verified_only: boolArg().optional().describe('true: only leads whose email verified as valid'),
  status: z.enum(POOL_STATUSES).optional().describe('only leads in this pool status (default: every status but removed)'),
  q: z.string().trim().min(1).max(200).optional().describe('text found in the email, a name, the company, the domain or the title (any case)'),
};
export const LeadFilterSchema = z.object(leadFilterShape).strict();
export type LeadFilter = z.infer<typeof LeadFilterSchema>;
/** The filter keys, to tell them apart from paging arguments in a merged tool call. */
export const FILTER_KEYS = Object.keys(leadFilterShape) as (keyof LeadFilter)[];

export const pickFilter = (input: Record<string, unknown>): LeadFilter =>
  Object.fromEntries(FILTER_KEYS.filter((k) => input[k] !== undefined).map((k) => [k, input[k]])) as LeadFilter;

/** Page arguments shared by every pool listing: the spec's pages of up to 200 via next_offset. */
export const pageShape = {
  limit: intArg(1, 200).default(50).describe('leads per page, 1 to 200 (default 50)'),
  offset: intArg(0, 10_000_000).default(0).describe('where the page starts: the next_offset of the previous page'),
};

export const MAX_COLUMNS = 12;
const columnKey = z.string().trim().min(1).max(64);
/** `columns`: up to 12 column keys whose values a page carries in `custom`; a comma list reads the same. */
export const columnsArg = () =>
  z
    .union([columnKey, z.array(columnKey).max(MAX_COLUMNS * 4)])
    .transform((v) => [...new Set((Array.isArray(v) ? v : v.split(',')).map((k) => k.trim()).filter(Boolean))])
    .refine((keys) => keys.length <= MAX_COLUMNS, { message: `at most ${MAX_COLUMNS} column keys per call` })
    .optional()
    .describe(`up to ${MAX_COLUMNS} custom column keys: custom then holds only these (each present, null where the lead has no value); default every custom value`);

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The filter as one WHERE over pool_leads, scoped to the organization and the client. */
export function leadFilterWhere(scope: { orgId: string; clientId: string }, f: LeadFilter): SQL {
  const where: (SQL | undefined)[] = [eq(poolLeads.orgId, scope.orgId), eq(poolLeads.clientId, scope.clientId)];
  where.push(f.status ? eq(poolLeads.status, f.status) : ne(poolLeads.status, 'removed'));
  if (f.icp_id) where.push(eq(poolLeads.icpId, f.icp_id));
  if (f.country?.length) where.push(sql`lower(${poolLeads.country}) = any(${sql.param(f.country.map((c) => c.toLowerCase()))}::text[])`);
  if (f.volume_band_min) where.push(inArray(poolLeads.volumeBand, BANDS_AT_LEAST[f.volume_band_min]));
  if (f.verified_only) where.push(eq(poolLeads.emailStatus, 'valid'));
  if (f.q) {
    const like = `%${escapeLike(f.q)}%`;
    where.push(
      or(
        ilike(poolLeads.email, like),
        ilike(poolLeads.fullName, like),
        ilike(sql`coalesce(${poolLeads.firstName}, '') || ' ' || coalesce(${poolLeads.lastName}, '')`, like),
        ilike(poolLeads.company, like),
        ilike(poolLeads.domain, like),
        ilike(poolLeads.title, like),
      ),
    );
  }
  if (f.not_contacted) where.push(notContactedWhere(scope));
  return and(...where)!;
}

/** The stable page order: oldest first, ties by id (pool_leads_client_created_idx). */
export const poolOrder = [asc(poolLeads.createdAt), asc(poolLeads.id)];
