import type { Operation } from '../../../lib/agency/operation';
import { createClientOp } from '../tools/create_client';
import { getAccountOp } from '../tools/get_account';
import { getAgencyDocsOp } from '../tools/get_agency_docs';
import { getClientOp } from '../tools/get_client';
import { listClientsOp } from '../tools/list_clients';
import { setAutoWriteOp } from '../tools/set_auto_write';
import { updateAgencyDocsOp } from '../tools/update_agency_docs';
import { updateClientOp } from '../tools/update_client';
import { updatePlaybookOp } from '../tools/update_playbook';

/** Account and setup: the account, clients, playbooks, the agency's docs. */
export const ACCOUNT_OPERATIONS = [
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
