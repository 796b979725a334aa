export const TABLE_PUSH_JOB = 'table_push.run';
export const TABLE_PUSH_SWEEP_JOB = 'table_push.sweep';
