import { registerMailboxTick } from './mailbox_tick';
import { registerSnapshotTick } from './snapshot';

/** The sending infrastructure's periodic work: the mailbox day (hourly, per organization's local day) and the 10-minute snapshot. */
export function registerInfraTicks() {
  registerMailboxTick();
  registerSnapshotTick();
}
