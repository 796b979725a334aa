import type { Context } from 'hono';
import { requireAgencyFeature } from '../../lib/agency/gate';
import type { AppEnv } from '../../lib/http/env';
import { newGroup } from '../../lib/http/env';
import { listingFilter } from '../../lib/mcp/tool_list';
import type { ToolServer } from '../../lib/mcp/tool_server';
import { callOf } from '../agency/call';
import { agencyToolServer } from './agency_server';
import { crmToolServer, requireCrmToolKey } from './crm_server';

/**
 * The tool servers (agency-operator.md §1): `/mcp` (agency tools, feature agency_tools) and `/mcp/crm` (the CRM
 * tools for client-locked crm.* keys). Streamable HTTP, stateless, POST only; the transport guard, auth and limits are the platform's (lib/http/platform.ts).
 */
export const mcpGroup = newGroup();

const serve = (server: ToolServer) => async (c: Context<AppEnv>) => {
  const filter = listingFilter(c.req.header('x-mcp-toolsets') ?? c.req.query('toolsets'), c.req.query('readonly'));
  const res = await server.handle(c.req.raw, await c.req.text(), { call: callOf(c, 'mcp'), filter, log: c.get('services').log, path: c.req.path });
  // Through the context, so the headers the platform set on the way in (X-RateLimit-*, X-Request-Id) go out too.
  return c.newResponse(res.body, { status: res.status as 200, headers: res.headers });
};

mcpGroup.all('/mcp', async (c) => {
  requireAgencyFeature(c.get('auth'));
  return serve(agencyToolServer)(c);
});
mcpGroup.all('/mcp/crm', async (c) => {
  requireCrmToolKey(c.get('auth'));
  return serve(crmToolServer)(c);
});
