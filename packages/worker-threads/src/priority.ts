// Background threads (the job service's job threads, kb-core's off-thread workers) run below the HTTP event loop's
// priority. On a loaded machine the loop's waits are for a CPU, not for its own work: a CPU profile and the main
// thread's scheduler statistics during issue #37's jobs case showed it waiting 100-500 ms at a time while the job's
// thread and its Vina and Open Babel processes ran. With a higher nice value on those threads, the scheduler hands
// the CPU to the loop first whenever it has a request to answer; they lose nothing while the loop is idle. One
// implementation for every product (issue 37). Linux only: there a nice value belongs to a thread (and the processes a
// thread starts inherit it); elsewhere setpriority(0) would lower the whole process, loop included.
import { getPriority, setPriority } from 'node:os';

/** The highest nice value (lowest priority) the kernel knows. */
const LOWEST = 19;

/**
 * Raises the calling thread's nice value by `steps` (up to 19). Returns the thread's nice value after, or undefined
 * when nothing was changed (steps 0, not Linux, or the call failed: the thread then runs as before).
 */
export function lowerThreadPriority(steps: number): number | undefined {
  if (process.platform !== 'linux' || !Number.isFinite(steps) || steps <= 0) return undefined;
  try {
    const now = getPriority();
    const target = Math.min(LOWEST, now + Math.round(steps));
    if (target !== now) setPriority(target);
    return getPriority();
  } catch {
    return undefined;
  }
}
