import { enrichRuns, leadSignals } from '../../schema';
import type { SignalKind } from '../ports/enrichment/port';
import type { SignalsRunView, StoredSignal } from './schema';

export type LeadSignalRow = typeof leadSignals.$inferSelect;
export type EnrichRunRow = typeof enrichRuns.$inferSelect;

export const storedSignalView = (r: LeadSignalRow): StoredSignal => ({
  id: r.id,
  kind: r.kind,
  title: r.title,
  happened_on: r.happenedOn,
  source: r.source,
  detail: r.detail,
  found_at: r.foundAt.toISOString(),
  run_id: r.runId,
  simulated: r.source === 'sim' || r.detail?.simulated === true,
});

export const signalsRunView = (r: EnrichRunRow): SignalsRunView => ({
  id: r.id,
  kind: 'signals',
  client_id: r.clientId,
  status: r.status,
  signal_kinds: (r.signalKinds ?? []) as SignalKind[],
  total: r.total,
  processed: r.processed,
  written: r.written,
  skipped: r.skipped,
  credits: r.credits,
  credit_cap: r.creditCap,
  last_error: r.lastError,
  created_at: r.createdAt.toISOString(),
  updated_at: r.updatedAt.toISOString(),
});
