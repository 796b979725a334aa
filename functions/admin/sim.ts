// GET /admin/v1/orgs/{org_id}/sim/{table} (agency-operator.md §5): the rows a simulated adapter wrote
// (lib/sim/tables.ts), only while that adapter is the simulation.
import { z } from '@hono/zod-openapi';
import type { Group } from '../../lib/http/env';
import { json } from '../../lib/http/openapi';
import { requireOrg } from '../../lib/orgs/admin';
import { SIM_TABLES, simRows } from '../../lib/sim/tables';
import { adminRoute } from './route';

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

export function registerSim(app: Group) {
  app.openapi(route, async (c) => {
    const { org_id, table } = c.req.valid('param');
    const services = c.get('services');
    await requireOrg(services.db, org_id);
    return c.json({ rows: await simRows(services, org_id, table, c.req.valid('query')) }, 200);
  });
}
