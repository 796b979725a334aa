/** One round of a formula run (payload { run_id }); each round enqueues the next until the run is done. */
export const FORMULA_ROUND_JOB = 'formula_run.round';
/** Finds running formula runs whose next round went missing (a QStash publish after commit that failed). */
export const FORMULA_SWEEP_JOB = 'formula_run.sweep';
