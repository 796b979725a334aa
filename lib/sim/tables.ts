// What the simulated adapters did, as rows (GET /admin/v1/orgs/{org_id}/sim/{table}, agency-operator.md §5), so an
// owner, a test or a demo can see the outside effects that never left the machine. Each table belongs to one port
// and exists only while that port runs its simulation. A port a later issue brings registers its table here.
import { and, desc, eq } from 'drizzle-orm';
import { enrichmentCalls, finderCalls, simDnsRecords, simMailboxes, simOrders, simSequencerSends, simTablePosts } from '../../schema';
import type { Db } from '../db/types';
import { ApiError } from '../errors';
import { RATE_LIMIT_MARK } from '../ports/registrar/sim';
import type { Services } from '../services';

export const SIM_TABLES = ['orders', 'dns_records', 'mailboxes', 'sequencer_sends', 'finder_calls', 'table_posts', 'enrichment_calls'] as const;
export type SimTable = (typeof SIM_TABLES)[number];

type Query = { limit: number; client_id?: string };
type Source = {
  /** The port's adapter in this deployment and the setting that chooses it. */
  adapter: (s: Services) => { kind: string; setting: string };
  rows: (db: Db, orgId: string, q: Query) => Promise<Record<string, unknown>[]>;
};

// Tables of ports not built yet answer 404 saying so, rather than an empty list that would look like "nothing happened".
const LATER: Partial<Record<SimTable, string>> = {};

const SOURCES: Partial<Record<SimTable, Source>> = {
  // Orders, DNS records and mailboxes carry no client column (the ports work per organization): client_id does not
  // narrow them. An order's `kind` tells a real order from the marker of a `slow-` name's refused first try.
  orders: {
    adapter: (s) => ({ kind: s.studio.registrar.kind, setting: 'REGISTRAR' }),
    rows: async (db, orgId, q) => {
      const rows = await db.select().from(simOrders).where(eq(simOrders.orgId, orgId)).orderBy(desc(simOrders.at), desc(simOrders.id)).limit(q.limit);
      return rows.map((r) => {
        const mark = r.reference.endsWith(RATE_LIMIT_MARK);
        return {
          id: r.id,
          kind: mark ? 'rate_limited' : 'order',
          reference: mark ? r.reference.slice(0, -RATE_LIMIT_MARK.length) : r.reference,
          domain: mark ? r.domain.slice(0, r.domain.indexOf(RATE_LIMIT_MARK)) : r.domain,
          price_cents: mark ? null : r.priceCents,
          simulated: true,
          at: r.at.toISOString(),
        };
      });
    },
  },
  dns_records: {
    adapter: (s) => ({ kind: s.studio.dnsRecords.kind, setting: 'DNS_RECORDS' }),
    rows: async (db, orgId, q) => {
      const rows = await db.select().from(simDnsRecords).where(eq(simDnsRecords.orgId, orgId)).orderBy(desc(simDnsRecords.at), desc(simDnsRecords.id)).limit(q.limit);
      return rows.map((r) => ({ id: r.id, domain: r.domain, type: r.type, name: r.name, content: r.content, simulated: true, at: r.at.toISOString() }));
    },
  },
  mailboxes: {
    adapter: (s) => ({ kind: s.studio.mailboxProvider.kind, setting: 'MAILBOX_PROVIDER' }),
    rows: async (db, orgId, q) => {
      const rows = await db.select().from(simMailboxes).where(eq(simMailboxes.orgId, orgId)).orderBy(desc(simMailboxes.at), desc(simMailboxes.id)).limit(q.limit);
      return rows.map((r) => ({ id: r.id, workspace_id: r.workspaceId, address: r.address, display_name: r.displayName, simulated: true, at: r.at.toISOString() }));
    },
  },
  sequencer_sends: {
    adapter: (s) => ({ kind: s.studio.sequencer.kind, setting: 'SEQUENCER' }),
    // Sends carry no client column (the simulated sequencer works per organization): client_id does not narrow them.
    rows: async (db, orgId, q) => {
      const rows = await db
        .select()
        .from(simSequencerSends)
        .where(eq(simSequencerSends.orgId, orgId))
        .orderBy(desc(simSequencerSends.at), desc(simSequencerSends.id))
        .limit(q.limit);
      return rows.map((r) => ({
        id: r.id,
        provider_campaign_id: r.campaignId,
        lead_email: r.leadEmail,
        step: r.step,
        mailbox: r.mailbox,
        day: r.day,
        outcome: r.outcome,
        reply_body: r.replyBody,
        simulated: true,
        at: r.at.toISOString(),
      }));
    },
  },
  finder_calls: {
    adapter: (s) => ({ kind: s.studio.finder.kind, setting: 'EMAIL_FINDER' }),
    rows: async (db, orgId, q) => {
      const where = and(eq(finderCalls.orgId, orgId), eq(finderCalls.simulated, true), q.client_id ? eq(finderCalls.clientId, q.client_id) : undefined);
      const rows = await db.select().from(finderCalls).where(where).orderBy(desc(finderCalls.at), desc(finderCalls.id)).limit(q.limit);
      return rows.map((r) => ({
        id: r.id,
        client_id: r.clientId,
        run_id: r.runId,
        lead_id: r.leadId,
        provider: r.provider,
        operation: r.operation,
        domain: r.domain,
        email: r.email,
        outcome: r.outcome,
        cost_micros: r.costMicros,
        simulated: r.simulated,
        at: r.at.toISOString(),
      }));
    },
  },
  table_posts: {
    adapter: (s) => ({ kind: s.studio.tableTool.kind, setting: 'TABLE_TOOL' }),
    // Posts carry no client column: a client filter would need the push's client (not asked for yet).
    rows: async (db, orgId, q) => {
      const rows = await db.select().from(simTablePosts).where(eq(simTablePosts.orgId, orgId)).orderBy(desc(simTablePosts.at), desc(simTablePosts.id)).limit(q.limit);
      return rows.map((r) => ({ id: r.id, push_id: r.pushId, lead_id: r.leadId, url: r.url, body: r.body, simulated: true, at: r.at.toISOString() }));
    },
  },
  enrichment_calls: {
    adapter: (s) => ({ kind: s.studio.enrichment.kind, setting: 'ENRICHMENT' }),
    // Calls carry no client column (the port logs per organization): client_id does not narrow them.
    rows: async (db, orgId, q) => {
      const rows = await db
        .select()
        .from(enrichmentCalls)
        .where(and(eq(enrichmentCalls.orgId, orgId), eq(enrichmentCalls.simulated, true)))
        .orderBy(desc(enrichmentCalls.at), desc(enrichmentCalls.id))
        .limit(q.limit);
      return rows.map((r) => ({ id: r.id, provider: r.provider, operation: r.operation, domain: r.domain, outcome: r.outcome, cost_micros: r.costMicros, simulated: r.simulated, at: r.at.toISOString() }));
    },
  },
};

/** The table's rows for one organization, newest first; 404 naming why when the table is not simulated here. */
export async function simRows(services: Services, orgId: string, table: SimTable, q: Query): Promise<Record<string, unknown>[]> {
  const later = LATER[table];
  if (later) throw new ApiError('not_found', `sim/${table}: ${later}`);
  const source = SOURCES[table]!;
  const { kind, setting } = source.adapter(services);
  if (kind !== 'sim') throw new ApiError('not_found', `sim/${table}: that port is not simulated here (${setting}=${kind})`);
  return source.rows(services.db, orgId, q);
}
