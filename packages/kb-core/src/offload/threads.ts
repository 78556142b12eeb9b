// How many worker threads a computation taken off the caller's thread may use.
import { availableParallelism } from 'node:os';

/** Leiden off the caller's thread: a worker per restart, up to the machine's cores, at least one. */
export function offThreadLeidenThreads(restarts: number): number {
  return Math.max(1, Math.min(restarts, availableParallelism()));
}
