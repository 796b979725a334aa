import { z } from '@hono/zod-openapi';
import type { Group } from '../../lib/http/env';
import { json, jsonBody } from '../../lib/http/openapi';
import { ColumnSchema } from '../../lib/pool/columns';
import { setColumnUse } from '../../lib/pool/column_use';
import { adminRoute } from './route';

const update = adminRoute({
  method: 'patch',
  path: '/admin/v1/clients/{client_id}/columns/{key}',
  summary: "Switch a custom column of a client's lead pool on (or off) for writing: the writer uses only columns a person switched on",
  request: {
    params: z.object({ client_id: z.uuid(), key: z.string().min(1).max(200) }),
    body: jsonBody(z.object({ use_for_writing: z.boolean() }).strict()),
  },
  responses: { 200: json(z.object({ column: ColumnSchema })) },
});

export function registerPoolColumns(app: Group) {
  app.openapi(update, async (c) => {
    const { client_id, key } = c.req.valid('param');
    const { db, clock } = c.get('services');
    return c.json({ column: await setColumnUse(db, { clientId: client_id, key, useForWriting: c.req.valid('json').use_for_writing, now: clock.now() }) }, 200);
  });
}
