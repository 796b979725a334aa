import { ApiError } from '../errors';

// The governed-send refusals more than one verb gives (and the review desk reads), in one place.

export const alreadySent = (sentAt: Date | null) =>
  new ApiError('already_sent', `this reply was already sent${sentAt ? ` at ${sentAt.toISOString()}` : ''}`, { facts: sentAt ? { sentAt } : {} });

export const noPendingDraft = () =>
  new ApiError('no_pending_draft', 'this reply has no draft waiting for review (send one with POST /v1/replies/{id}/send first)');

export const draftChangedMeanwhile = () =>
  new ApiError('conflict', 'The draft was changed after you opened it, so nothing was done. Open it again to read the new text.');
