/** One round of a signals run (payload `{ run_id, org_id }`); each round queues the next until the run is done. */
export const SIGNALS_ROUND_JOB = 'signals.round';
