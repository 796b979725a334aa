// What the rest of the engine reads of batches (writing, campaigns, client_today): the open batch and its view.
export { BatchSchema, batchView, batchViewOf, batchCounts, bumpRevision, latestBatch, openBatch, OPEN_BATCH_STATUSES, type BatchRow, type BatchView } from './view';
export { WrittenMailSchema, missingSources } from './mails';
