import { z } from '@hono/zod-openapi';
import type { Group } from '../../lib/http/env';
import { errors, json, jsonBody } from '../../lib/http/openapi';
import { approveByPerson } from '../../lib/plans/approve';
import { PlanSchema } from '../../lib/plans/view';
import { adminRoute } from './route';

const approve = adminRoute({
  method: 'post',
  path: '/admin/v1/plans/{plan_id}/approve',
  summary: 'A person approves a plan in the app (also confirming a cost that needs a person); steps then run on their day',
  request: {
    params: z.object({ plan_id: z.uuid() }),
    body: jsonBody(
      z
        .object({
          approver: z.string().trim().min(1).max(200).describe('who approves: shown as approved_by and in the plan log'),
          scope: z.enum(['all', 'free_steps']).optional(),
        })
        .strict(),
    ),
  },
  responses: { 200: json(z.object({ plan: PlanSchema })), ...errors([409, 'conflict, dry_run_failed']) },
});

export function registerPlans(app: Group) {
  app.openapi(approve, async (c) => {
    const { plan_id } = c.req.valid('param');
    const body = c.req.valid('json');
    return c.json(await approveByPerson(c.get('services'), plan_id, body), 200);
  });
}
