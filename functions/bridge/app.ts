import { newGroup } from '../../lib/http/env';
import { registerReceiveRows } from './receive_rows';

/** Rows in from the clients' table tools (agency spec §4 "Bridge inbound"): each client's hooks post here. */
export const bridgeGroup = newGroup();
registerReceiveRows(bridgeGroup);
