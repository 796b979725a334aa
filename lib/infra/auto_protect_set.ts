// set_auto_protect: the client's auto_protect flag, through the one verb that changes a client's own fields (audited
// as client.updated, idempotent: the same value again writes nothing and answers updated: false).
import { updateClient } from '../agency/clients/update_client';
import type { AgencyCall } from '../agency/operation';

export const setAutoProtect = (call: AgencyCall, input: { client_id: string; auto_protect: boolean }) => updateClient(call, { client_id: input.client_id, auto_protect: input.auto_protect });
