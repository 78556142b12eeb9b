// How many worker threads a computation taken off the caller's thread may use, and how far below the caller's
// priority they run.
import { availableParallelism } from 'node:os';
import { KbOffThreadUnavailableError } from './errors.js';

/** Leiden off the caller's thread: a worker per restart, up to the machine's cores, at least one. */
export function offThreadLeidenThreads(restarts: number): number {
  return Math.max(1, Math.min(restarts, availableParallelism()));
}

/** Nice steps of the off-thread workers unless EVIDENT_OFFLOAD_NICE says otherwise (0 turns it off). */
export const OFFLOAD_NICE_DEFAULT = 10;

/**
 * Nice steps each off-thread worker (the replica thread, Leiden's and the SVD's threads) takes at its start, below
 * the caller's thread (README.md, "Priority"): `EVIDENT_OFFLOAD_NICE`, an integer from 0 (off) to 19, default 10.
 * Read when a thread starts, so a server's setting applies to its next thread. Another value is refused, naming it:
 * the setting is the server's, so the call answers 503, not the client's 400.
 */
export function offThreadNice(env: NodeJS.ProcessEnv = process.env): number {
  const v = env.EVIDENT_OFFLOAD_NICE;
  if (v === undefined || v.trim() === '') return OFFLOAD_NICE_DEFAULT;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 19)
    throw new KbOffThreadUnavailableError(
      `EVIDENT_OFFLOAD_NICE must be an integer from 0 to 19, not ${JSON.stringify(v)}`,
    );
  return n;
}
