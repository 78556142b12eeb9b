// The job record's columns, as both stores select them (the two schemas name them alike).
export const JOB_COLUMNS = `id, seq, key_id, kind, status, phase, attempts, max_attempts, run_after, created_at, started_at,
  completed_at, progress_stage, progress_percent, error_code, error_message, estimate_low, estimate_high, callback_url`;
