// read_signals: the signals stored for a client's leads (lead_signals), grouped per lead, the lead with the newest
// find first. Reads only; nothing is looked up at the provider (run_signals does that).
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { leadSignals, poolLeads } from '../../schema';
import { findClient } from '../agency/clients/view';
import type { AgencyCall } from '../agency/operation';
import { ApiError } from '../errors';
import type { SignalKind } from '../ports/enrichment/port';
import type { z } from 'zod';
import type { ReadSignalsSchema } from './schema';
import { storedSignalView } from './view';

export type ReadSignalsInput = { client_id: string; lead_ids?: string[]; kinds?: SignalKind[]; limit?: number; offset?: number };

export async function readSignals(call: AgencyCall, input: ReadSignalsInput): Promise<z.infer<typeof ReadSignalsSchema>> {
  const { db } = call.services;
  const orgId = call.auth.orgId;
  await findClient(db, orgId, input.client_id);
  const tenant = and(eq(leadSignals.orgId, orgId), eq(leadSignals.clientId, input.client_id));
  const ids = input.lead_ids ? [...new Set(input.lead_ids.map((id) => id.toLowerCase()))] : undefined;
  if (ids) {
    const known = await db
      .select({ id: poolLeads.id })
      .from(poolLeads)
      .where(and(eq(poolLeads.orgId, orgId), eq(poolLeads.clientId, input.client_id), inArray(poolLeads.id, ids)));
    const have = new Set(known.map((k) => k.id));
    const unknown = ids.filter((id) => !have.has(id));
    if (unknown.length) throw new ApiError('not_found', `lead_ids: no lead ${unknown.slice(0, 10).join(', ')} in this client's pool`, { body: { unknown_lead_ids: unknown } });
  }
  const where = and(tenant, ids ? inArray(leadSignals.leadId, ids) : undefined, input.kinds ? inArray(leadSignals.kind, input.kinds) : undefined);
  const limit = input.limit ?? 50;
  const offset = input.offset ?? 0;
  const newest = sql<Date>`max(${leadSignals.foundAt})`;
  const page = await db
    .select({ leadId: leadSignals.leadId })
    .from(leadSignals)
    .where(where)
    .groupBy(leadSignals.leadId)
    .orderBy(desc(newest), leadSignals.leadId)
    .limit(limit + 1)
    .offset(offset);
  const leadIds = page.slice(0, limit).map((p) => p.leadId);
  if (leadIds.length === 0) return { leads: [], next_offset: null };
  const [signals, leads] = await Promise.all([
    db
      .select()
      .from(leadSignals)
      .where(and(where, inArray(leadSignals.leadId, leadIds)))
      .orderBy(desc(sql`coalesce(${leadSignals.happenedOn}, '')`), desc(leadSignals.foundAt), leadSignals.kind, leadSignals.title),
    db
      .select({ id: poolLeads.id, company: poolLeads.company, domain: poolLeads.domain })
      .from(poolLeads)
      .where(and(eq(poolLeads.orgId, orgId), eq(poolLeads.clientId, input.client_id), inArray(poolLeads.id, leadIds))),
  ]);
  const leadById = new Map(leads.map((l) => [l.id, l]));
  return {
    leads: leadIds.map((id) => ({
      lead_id: id,
      company: leadById.get(id)?.company ?? null,
      domain: leadById.get(id)?.domain ?? null,
      signals: signals.filter((s) => s.leadId === id).map(storedSignalView),
    })),
    next_offset: page.length > limit ? offset + limit : null,
  };
}
