import { z } from '@hono/zod-openapi';
import type { Group } from '../../lib/http/env';
import { errors, json, jsonBody } from '../../lib/http/openapi';
import { createIcp, IcpRulesSchema } from '../../lib/pool/icps';
import { MAX_SNAPSHOT_EMAILS, replaceSequencerSnapshot } from '../../lib/pool/snapshot';
import { adminRoute } from './route';

const ClientIdParam = z.object({ client_id: z.uuid() });

const SnapshotBody = z
  .strictObject({
    day: z.iso.date().optional().openapi({ description: "the snapshot's day (YYYY-MM-DD); default today in the organization's timezone" }),
    emails: z.array(z.string().max(320)).max(MAX_SNAPSHOT_EMAILS).openapi({ description: `every address in a campaign at the sending tool (at most ${MAX_SNAPSHOT_EMAILS.toLocaleString('en')}; the request body limit applies)` }),
  })
  .openapi('SequencerSnapshotBody');

const putSnapshot = adminRoute({
  method: 'put',
  path: '/admin/v1/clients/{client_id}/sequencer-snapshot',
  summary: "Replace the client's sequencer snapshot: who is in a campaign at the sending tool (not-contacted and import checks read the latest)",
  request: { params: ClientIdParam, body: jsonBody(SnapshotBody) },
  responses: { 200: json(z.object({ snapshot: z.object({ day: z.string(), count: z.number().int() }) })) },
});

const Icp = z
  .object({
    id: z.uuid(),
    name: z.string(),
    rules: z.object({
      countries: z.array(z.string()).optional(),
      titles: z.array(z.string()).optional(),
      volume_bands: z.array(z.enum(['high', 'medium', 'low'])).optional(),
      keywords: z.array(z.string()).optional(),
    }),
    created_at: z.string(),
    leads: z.number().int().openapi({ description: 'leads of the pool no ICP held yet that meet the rules and joined this one now' }),
  })
  .openapi('Icp');

const createIcpRoute = adminRoute({
  method: 'post',
  path: '/admin/v1/clients/{client_id}/icps',
  summary: 'Create an ideal customer profile of the client (rules: countries, titles, volume_bands, keywords); names are unique per client',
  request: { params: ClientIdParam, body: jsonBody(z.strictObject({ name: z.string().trim().min(1).max(100), rules: IcpRulesSchema }).openapi('CreateIcpBody')) },
  responses: { 201: json(z.object({ icp: Icp }), 'Created'), ...errors([409, 'conflict (an ICP of that name exists; the body carries it)']) },
});

export function registerPoolAdmin(app: Group) {
  app.openapi(putSnapshot, async (c) => {
    const { db, clock } = c.get('services');
    const { day, emails } = c.req.valid('json');
    return c.json(await replaceSequencerSnapshot(db, { clientId: c.req.valid('param').client_id, day, emails, now: clock.now() }), 200);
  });
  app.openapi(createIcpRoute, async (c) => {
    const { db, clock } = c.get('services');
    const { name, rules } = c.req.valid('json');
    return c.json({ icp: await createIcp(db, { clientId: c.req.valid('param').client_id, name, rules, now: clock.now() }) }, 201);
  });
}
