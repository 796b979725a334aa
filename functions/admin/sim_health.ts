// PUT/DELETE /admin/v1/orgs/{org_id}/sim/health (agency-operator.md §5, §6): an owner, a demo or a test injects what
// the simulated warm-up/health port reports for one mailbox address or one domain: a bounce rate, a listed domain, a
// disconnect. Only while WARMUP=sim: a real provider's health cannot be overridden (404 naming WARMUP).
import { z } from '@hono/zod-openapi';
import { ApiError } from '../../lib/errors';
import type { Group } from '../../lib/http/env';
import { json, jsonBody } from '../../lib/http/openapi';
import { requireOrg } from '../../lib/orgs/admin';
import { deleteHealthOverride, putHealthOverride } from '../../lib/ports/warmup/sim';
import type { Services } from '../../lib/services';
import { adminRoute } from './route';

const ADDRESS_RE = /^[^@\s]+@([a-z0-9-]+\.)+[a-z]{2,63}$/i;
const DOMAIN_RE = /^([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,63}$/i;

const Target = z
  .string()
  .trim()
  .min(1)
  .max(320)
  .refine((t) => ADDRESS_RE.test(t) || DOMAIN_RE.test(t), 'must be a mailbox address (a@example.com) or a domain (example.com)')
  .openapi({ description: 'A mailbox address or a domain; an address override wins over its domain\'s, field by field' });

const Body = z
  .object({
    target: Target,
    bounce_rate: z.number().min(0).max(1).nullable().optional().openapi({ description: 'Replaces the simulated bounce rate (0..1); null clears it' }),
    listed: z.boolean().nullable().optional().openapi({ description: 'true: the domain is reported listed; null clears it' }),
    disconnected: z.boolean().nullable().optional().openapi({ description: 'true: the mailbox is reported disconnected; null clears it' }),
  })
  .strict()
  .refine((b) => b.bounce_rate !== undefined || b.listed !== undefined || b.disconnected !== undefined, {
    message: 'give at least one of bounce_rate, listed, disconnected',
    path: ['body'],
  });

const Override = z.object({
  target: z.string(),
  bounce_rate: z.number().nullable(),
  listed: z.boolean().nullable(),
  disconnected: z.boolean().nullable(),
  at: z.string(),
});

const Params = z.object({ org_id: z.uuid() });

const put = adminRoute({
  method: 'put',
  path: '/admin/v1/orgs/{org_id}/sim/health',
  summary: 'Inject what the simulated health port reports for a mailbox address or a domain (WARMUP=sim only)',
  request: { params: Params, body: jsonBody(Body) },
  responses: { 200: json(z.object({ override: Override })) },
});

const remove = adminRoute({
  method: 'delete',
  path: '/admin/v1/orgs/{org_id}/sim/health',
  summary: 'Remove the injected health of a mailbox address or a domain (WARMUP=sim only)',
  request: { params: Params, query: z.object({ target: Target }) },
  responses: { 200: json(z.object({ target: z.string(), removed: z.boolean() })) },
});

function requireSimWarmup(services: Services) {
  const kind = services.studio.warmup.kind;
  if (kind !== 'sim') throw new ApiError('not_found', `sim/health: the health port is not simulated here (WARMUP=${kind})`);
}

export function registerSimHealth(app: Group) {
  app.openapi(put, async (c) => {
    const { org_id } = c.req.valid('param');
    const services = c.get('services');
    requireSimWarmup(services);
    await requireOrg(services.db, org_id);
    return c.json({ override: await putHealthOverride(services.db, org_id, c.req.valid('json')) }, 200);
  });
  app.openapi(remove, async (c) => {
    const { org_id } = c.req.valid('param');
    const services = c.get('services');
    requireSimWarmup(services);
    await requireOrg(services.db, org_id);
    const target = c.req.valid('query').target.toLowerCase();
    return c.json({ target, removed: await deleteHealthOverride(services.db, org_id, target) }, 200);
  });
}
