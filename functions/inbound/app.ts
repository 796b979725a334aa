import { newGroup } from '../../lib/http/env';
import { registerReceiveReply } from './receive_reply';

/** Replies in from the sending tools: each organization's inbound sources post their reply webhooks here. */
export const inboundGroup = newGroup();
registerReceiveReply(inboundGroup);
