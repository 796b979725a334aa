import type { Operation } from '../../lib/agency/operation';
import { createClientOp } from './tools/create_client';
import { getAccountOp } from './tools/get_account';
import { getAgencyDocsOp } from './tools/get_agency_docs';
import { getClientOp } from './tools/get_client';
import { listClientsOp } from './tools/list_clients';
import { setAutoWriteOp } from './tools/set_auto_write';
import { updateAgencyDocsOp } from './tools/update_agency_docs';
import { updateClientOp } from './tools/update_client';
import { updatePlaybookOp } from './tools/update_playbook';

/**
 * The agency operation table: every agency operation once. functions/agency serves each entry as a REST route,
 * functions/mcp as a tool (restOnly entries are routes only). Adding a tool is adding one file and one line here.
 */
export const OPERATIONS: readonly Operation[] = [
  // account
  getAccountOp,
  listClientsOp,
  getClientOp,
  getAgencyDocsOp,
  createClientOp,
  updateClientOp,
  setAutoWriteOp,
  updatePlaybookOp,
  updateAgencyDocsOp,
] as unknown as Operation[];

export const TOOLS: readonly Operation[] = OPERATIONS.filter((op) => !op.restOnly);
export const toolByName = new Map(TOOLS.map((op) => [op.name, op]));
