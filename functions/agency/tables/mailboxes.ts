import type { Operation } from '../../../lib/agency/operation';
import { attachMailboxesOp } from '../tools/attach_mailboxes';
import { getInfrastructureOp } from '../tools/get_infrastructure';
import { getMailboxLifecycleOp } from '../tools/get_mailbox_lifecycle';
import { setAutoProtectOp } from '../tools/set_auto_protect';
import { unparkMailboxOp } from '../tools/unpark_mailbox';

/** Mailboxes and the infrastructure snapshot (Studio, issue 17): lifecycle, auto-protect, unpark, attach. */
export const MAILBOX_OPERATIONS = [getInfrastructureOp, getMailboxLifecycleOp, attachMailboxesOp, setAutoProtectOp, unparkMailboxOp] as unknown as Operation[];
