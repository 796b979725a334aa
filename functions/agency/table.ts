import type { Operation } from '../../lib/agency/operation';
import { ACCOUNT_OPERATIONS } from './tables/account';
import { CAMPAIGN_OPERATIONS } from './tables/campaigns';
import { REPLY_OPERATIONS } from './tables/replies';

/**
 * The agency operation table: every agency operation once, grouped by toolset in ./tables. functions/agency
 * serves each entry as a REST route, functions/mcp as a tool (restOnly entries are routes only). Adding a tool is
 * adding one file in ./tools and one line in its table.
 */
export const OPERATIONS: readonly Operation[] = [...ACCOUNT_OPERATIONS, ...CAMPAIGN_OPERATIONS, ...REPLY_OPERATIONS];

export const TOOLS: readonly Operation[] = OPERATIONS.filter((op) => !op.restOnly);
export const toolByName = new Map(TOOLS.map((op) => [op.name, op]));
