import type { Operation } from '../../lib/agency/operation';
import { ACCOUNT_OPERATIONS } from './tables/account';
import { AGREEMENT_OPERATIONS } from './tables/agreements';
import { BATCH_OPERATIONS } from './tables/batches';
import { CAMPAIGN_OPERATIONS } from './tables/campaigns';
import { DOMAIN_OPERATIONS } from './tables/domains';
import { FORMULA_OPERATIONS } from './tables/formulas';
import { MAILBOX_OPERATIONS } from './tables/mailboxes';
import { PLAN_OPERATIONS } from './tables/plans';
import { POOL_IMPORT_OPERATIONS } from './tables/pool_import';
import { POOL_READ_OPERATIONS } from './tables/pool_reads';
import { RECIPE_OPERATIONS } from './tables/recipes';
import { REPLY_OPERATIONS } from './tables/replies';
import { SEQUENCE_OPERATIONS } from './tables/sequences';
import { SIGNALS_OPERATIONS } from './tables/signals';
import { STUDIO_CAMPAIGN_OPERATIONS } from './tables/studio_campaigns';
import { WATERFALL_OPERATIONS } from './tables/waterfall';
import { WRITING_OPERATIONS } from './tables/writing';

/**
 * The agency operation table: every agency operation once, grouped by toolset in ./tables. functions/agency
 * serves each entry as a REST route, functions/mcp as a tool (restOnly entries are routes only). Adding a tool is
 * adding one file in ./tools and one line in its table.
 */
export const OPERATIONS: readonly Operation[] = [...ACCOUNT_OPERATIONS, ...CAMPAIGN_OPERATIONS, ...REPLY_OPERATIONS, ...POOL_READ_OPERATIONS, ...POOL_IMPORT_OPERATIONS, ...WATERFALL_OPERATIONS, ...SIGNALS_OPERATIONS, ...RECIPE_OPERATIONS, ...FORMULA_OPERATIONS, ...AGREEMENT_OPERATIONS, ...PLAN_OPERATIONS, ...DOMAIN_OPERATIONS, ...MAILBOX_OPERATIONS, ...SEQUENCE_OPERATIONS, ...BATCH_OPERATIONS, ...STUDIO_CAMPAIGN_OPERATIONS, ...WRITING_OPERATIONS];

export const TOOLS: readonly Operation[] = OPERATIONS.filter((op) => !op.restOnly);
export const toolByName = new Map(TOOLS.map((op) => [op.name, op]));
