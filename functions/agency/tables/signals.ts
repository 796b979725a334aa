import type { Operation } from '../../../lib/agency/operation';
import { estimateSignalsOp } from '../tools/estimate_signals';
import { readSignalsOp } from '../tools/read_signals';
import { runSignalsOp } from '../tools/run_signals';

/** Signals: read what was found, estimate a run's ceiling, run it (rounds as queued jobs). */
export const SIGNALS_OPERATIONS = [readSignalsOp, estimateSignalsOp, runSignalsOp] as unknown as Operation[];
