// How many log seqs an entry covers: a ClaimRun takes n, every other entry one.
import type { LogEntry, LogRecord } from './types.js';

/** How many seqs an entry takes in the log: n for a ClaimRun, 1 for any other entry. */
export function entrySpan(e: LogEntry): number {
  return e.kind === 'claims' ? e.n : 1;
}

/** The last seq a record covers (a run's record covers n). */
export function lastSeqOf(r: LogRecord): number {
  return r.seq + entrySpan(r.entry) - 1;
}
