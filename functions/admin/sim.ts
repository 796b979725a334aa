// GET /admin/v1/orgs/{org_id}/sim/{table} (agency-operator.md §5): what the simulated adapters did, as rows, so an
// owner, a test or a demo can see the outside effects that never left the machine. Only while that table's adapter
// is the simulation: with a production adapter in use the table does not exist here (404, naming the adapter).
// The registrar, mailbox, sequencer and DNS-record simulations arrive with the infrastructure and campaign issues;
// until then their tables answer 404 saying so, rather than an empty list that would look like "nothing happened".
import { z } from '@hono/zod-openapi';
import { and, desc, eq } from 'drizzle-orm';
import { ApiError } from '../../lib/errors';
import type { Group } from '../../lib/http/env';
import { json } from '../../lib/http/openapi';
import { requireOrg } from '../../lib/orgs/admin';
import type { Services } from '../../lib/services';
import { enrichmentCalls, finderCalls, simTablePosts } from '../../schema';
import { adminRoute } from './route';

export const SIM_TABLES = ['orders', 'dns_records', 'mailboxes', 'sequencer_sends', 'finder_calls', 'table_posts', 'enrichment_calls'] as const;
type SimTable = (typeof SIM_TABLES)[number];

const LATER: Partial<Record<SimTable, string>> = {
  orders: 'the simulated registrar (domain orders) arrives with the infrastructure issue',
  dns_records: 'the simulated DNS records of bought domains arrive with the infrastructure issue',
  mailboxes: 'the simulated mailbox provider arrives with the infrastructure issue',
  sequencer_sends: 'the simulated sequencer arrives with the campaign issue',
};

const route = adminRoute({
  method: 'get',
  path: '/admin/v1/orgs/{org_id}/sim/{table}',
  summary: "Rows a simulated adapter wrote for this organization, newest first (only while that adapter is the simulation)",
  request: {
    params: z.object({ org_id: z.uuid(), table: z.enum(SIM_TABLES) }),
    query: z.object({
      limit: z.coerce.number().int().min(1).max(1000).default(200),
      client_id: z.uuid().optional(),
    }),
  },
  responses: { 200: json(z.object({ rows: z.array(z.record(z.string(), z.unknown())) })) },
});

async function simRows(services: Services, orgId: string, table: SimTable, q: { limit: number; client_id?: string }) {
  await requireOrg(services.db, orgId);
  if (LATER[table]) throw new ApiError('not_found', `sim/${table}: ${LATER[table]}`);
  const { db, studio } = services;
  if (table === 'enrichment_calls') {
    if (studio.enrichment.kind !== 'sim') throw new ApiError('not_found', `sim/enrichment_calls: enrichment is not simulated here (ENRICHMENT=${studio.enrichment.kind})`);
    // Calls carry no client column (the port logs per organization): client_id does not narrow them.
    const rows = await db
      .select()
      .from(enrichmentCalls)
      .where(and(eq(enrichmentCalls.orgId, orgId), eq(enrichmentCalls.simulated, true)))
      .orderBy(desc(enrichmentCalls.at), desc(enrichmentCalls.id))
      .limit(q.limit);
    return rows.map((r) => ({ id: r.id, provider: r.provider, operation: r.operation, domain: r.domain, outcome: r.outcome, cost_micros: r.costMicros, simulated: r.simulated, at: r.at.toISOString() }));
  }
  if (table === 'finder_calls') {
    if (studio.finder.kind !== 'sim') throw new ApiError('not_found', `sim/finder_calls: the email finder is not simulated here (EMAIL_FINDER=${studio.finder.kind})`);
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
  }
  if (studio.tableTool.kind !== 'sim') throw new ApiError('not_found', `sim/table_posts: the table tool is not simulated here (TABLE_TOOL=${studio.tableTool.kind})`);
  // Posts carry no client column: a client filter would need the push's client (not asked for yet).
  const rows = await db.select().from(simTablePosts).where(eq(simTablePosts.orgId, orgId)).orderBy(desc(simTablePosts.at), desc(simTablePosts.id)).limit(q.limit);
  return rows.map((r) => ({ id: r.id, push_id: r.pushId, lead_id: r.leadId, url: r.url, body: r.body, simulated: true, at: r.at.toISOString() }));
}

export function registerSim(app: Group) {
  app.openapi(route, async (c) => {
    const { org_id, table } = c.req.valid('param');
    return c.json({ rows: await simRows(c.get('services'), org_id, table, c.req.valid('query')) }, 200);
  });
}
