import { z } from '@hono/zod-openapi';
import type { Group } from '../../lib/http/env';
import { errors, json, jsonBody } from '../../lib/http/openapi';
import { goLiveByAdmin } from '../../lib/recipes/go_live';
import { RecipeSchema } from '../../lib/recipes/load';
import { adminRoute } from './route';

const goLive = adminRoute({
  method: 'post',
  path: '/admin/v1/recipes/{recipe_id}/go-live',
  summary: "A person makes a recipe's draft (or an older version, a rollback) the live version; the assistant cannot",
  request: {
    params: z.object({ recipe_id: z.uuid() }),
    body: jsonBody(z.object({ version: z.number().int().min(1).optional() }).strict()),
  },
  responses: { 200: json(z.object({ recipe: RecipeSchema })), ...errors([409, 'conflict']) },
});

export function registerRecipes(app: Group) {
  app.openapi(goLive, async (c) => {
    const { recipe_id } = c.req.valid('param');
    const { db, clock } = c.get('services');
    const body = c.req.valid('json');
    return c.json(await goLiveByAdmin(db, { recipeId: recipe_id, version: body.version, now: clock.now() }), 200);
  });
}
