import { and, asc, eq, isNull, ne, sql } from 'drizzle-orm';
import { z } from 'zod';
import { clients, icps, poolLeads, type IcpRules } from '../../schema';
import { writeAudit } from '../agency/audit';
import { findClient } from '../agency/clients/view';
import type { AgencyCall } from '../agency/operation';
import { isUniqueViolation, type Db } from '../db/types';
import { ApiError, notFound } from '../errors';
import { VOLUME_BANDS } from './filters';
import { matchesIcp } from './icp_match';

const words = (what: string) => z.array(z.string().trim().min(1).max(200)).max(200).optional().describe(what);

/** An ICP's rules (agency-operator.md §5): a lead matches when it meets every rule given. */
export const IcpRulesSchema = z
  .strictObject({
    countries: words('countries a lead may be in (any case)'),
    titles: words('words one of which the title holds (any case)'),
    volume_bands: z.array(z.enum(VOLUME_BANDS)).max(3).optional().describe('volume bands a lead may have'),
    keywords: words('words one of which the title, company, hook or note holds (any case)'),
  })
  .refine((r) => Object.values(r).some((v) => v && v.length > 0), { message: 'give at least one of countries, titles, volume_bands, keywords' });

export const IcpSchema = z.object({
  id: z.string(),
  name: z.string(),
  rules: z.object({
    countries: z.array(z.string()).optional(),
    titles: z.array(z.string()).optional(),
    volume_bands: z.array(z.enum(VOLUME_BANDS)).optional(),
    keywords: z.array(z.string()).optional(),
  }),
  created_at: z.string(),
});
export const IcpWithCountSchema = IcpSchema.extend({ leads: z.number().int().describe('leads of the pool (not removed) matched to this ICP') });

type IcpRow = typeof icps.$inferSelect;
const icpView = (r: IcpRow) => ({ id: r.id, name: r.name, rules: r.rules, created_at: r.createdAt.toISOString() });

/** list_icps: the client's ICPs, oldest first, each with how many pool leads it matched. One statement. */
export async function listIcps(call: AgencyCall, input: { client_id: string }) {
  const { db } = call.services;
  const { orgId } = call.auth;
  await findClient(db, orgId, input.client_id);
  const matched = db
    .select({ icpId: poolLeads.icpId, n: sql<number>`count(*)::int`.as('n') })
    .from(poolLeads)
    .where(and(eq(poolLeads.clientId, input.client_id), eq(poolLeads.orgId, orgId), sql`${poolLeads.status} <> 'removed'`, sql`${poolLeads.icpId} is not null`))
    .groupBy(poolLeads.icpId)
    .as('matched');
  const rows = await db
    .select({ icp: icps, n: matched.n })
    .from(icps)
    .leftJoin(matched, eq(matched.icpId, icps.id))
    .where(and(eq(icps.clientId, input.client_id), eq(icps.orgId, orgId)))
    .orderBy(asc(icps.createdAt), asc(icps.id));
  return { icps: rows.map((r) => ({ ...icpView(r.icp), leads: Number(r.n ?? 0) })) };
}

/**
 * A lead belongs to the first ICP (by creation) it meets (lib/pool/icp_match.ts, as at import), so a new ICP can
 * only take leads no ICP holds yet: those of the pool already there that meet its rules join it now, instead of
 * waiting for an import that will never touch them again. One read of the unassigned leads, one set-based update.
 */
async function assignNewIcp(tx: Db, icp: IcpRow): Promise<number> {
  const candidates = await tx
    .select({ id: poolLeads.id, country: poolLeads.country, title: poolLeads.title, company: poolLeads.company, hook: poolLeads.hook, note: poolLeads.note, volumeBand: poolLeads.volumeBand })
    .from(poolLeads)
    .where(and(eq(poolLeads.clientId, icp.clientId), eq(poolLeads.orgId, icp.orgId), isNull(poolLeads.icpId), ne(poolLeads.status, 'removed')));
  const ids = candidates.filter((c) => matchesIcp(icp.rules, c)).map((c) => c.id);
  if (ids.length === 0) return 0;
  await tx
    .update(poolLeads)
    .set({ icpId: icp.id })
    .where(and(eq(poolLeads.clientId, icp.clientId), isNull(poolLeads.icpId), sql`${poolLeads.id} = any(${sql.param(ids)}::uuid[])`));
  return ids.length;
}

/**
 * The admin's POST /clients/{client_id}/icps: a new ICP of the client, with its audit row (actor admin). Names are
 * unique per client: a second ICP of the same name is 409 conflict carrying the existing one, because an ICP's id
 * is what leads and saved segments point at and must not silently change rules under them.
 */
export async function createIcp(db: Db, input: { clientId: string; name: string; rules: IcpRules; now: Date }) {
  const [client] = await db.select().from(clients).where(eq(clients.id, input.clientId));
  if (!client) throw notFound('client');
  const name = input.name.trim();
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx.insert(icps).values({ orgId: client.orgId, clientId: client.id, name, rules: input.rules, createdAt: input.now }).returning();
      const leads = await assignNewIcp(tx, row);
      await writeAudit(tx, { orgId: client.orgId, actor: 'admin', action: 'icp.created', target: `icp:${row.id}`, detail: { client_id: client.id, name, rules: input.rules, leads }, at: input.now });
      return { ...icpView(row), leads };
    });
  } catch (err) {
    if (!isUniqueViolation(err, 'icps_client_name_uq')) throw err;
    const [existing] = await db.select().from(icps).where(and(eq(icps.clientId, client.id), eq(icps.name, name)));
    throw new ApiError('conflict', `client already has an ICP named ${JSON.stringify(name)}`, { body: { icp: existing ? icpView(existing) : null } });
  }
}
