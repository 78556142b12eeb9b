// How long a job waits before a worker takes it, from the jobs ahead of it: list scheduling of the remaining
// running work and the queued jobs (in queue order) onto the worker slots, once with the low and once with the
// high estimates. The slot count is what the process knows: its own worker threads in embedded mode; in
// scale-out mode the workers are other processes, so when jobs are queued the jobs running now are taken as the
// capacity (the queue would be empty if there were free workers).
import type { ActiveJob } from '../store/types.js';

export interface QueuePlace {
  /** 1 for the next job a worker takes; undefined when the job is running or not in the list. */
  position?: number;
  /** Seconds until a worker takes the job, [low, high]. */
  wait: [number, number];
}

/** `active`: every processing job in queue order (the store's `activeJobs`). */
export function queuePlace(active: readonly ActiveJob[], jobId: string, now: number, knownSlots?: number): QueuePlace {
  const running = active.filter((j) => j.phase === 'running');
  const queued = active.filter((j) => j.phase !== 'running');
  const index = queued.findIndex((j) => j.id === jobId);
  if (index < 0) return { wait: [0, 0] };
  const slots = Math.max(1, knownSlots ?? running.length, running.length);
  const ahead = queued.slice(0, index);
  const waitFor = (estimate: (j: ActiveJob) => number): number => {
    const free = running.map((j) => Math.max(0, (j.started_at ?? now) / 1000 + estimate(j) - now / 1000));
    while (free.length < slots) free.push(0);
    for (const j of ahead) {
      free.sort((a, b) => a - b);
      free[0]! += estimate(j);
    }
    return Math.min(...free);
  };
  return { position: index + 1, wait: [waitFor((j) => j.estimate_low), waitFor((j) => j.estimate_high)] };
}
