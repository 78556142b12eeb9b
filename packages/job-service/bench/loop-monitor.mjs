// An event-loop stall monitor for a server under a bench: node --import <this file> (hostile bench:
// HOSTILE_NODE_FLAGS="--import ./bench/loop-monitor.mjs"). Every 10 ms a timer looks at how long the main thread's
// loop took to come back; a gap above LOOP_MONITOR_MS (100) is appended to LOOP_MONITOR_OUT (default stderr) with
// what the thread did meanwhile, read from the kernel's scheduler statistics of that thread (Linux,
// /proc/self/task/<pid>/schedstat): `ran` (on a CPU: the loop's own work), `waited` (runnable, waiting for a CPU: the
// machine's load or the process's other threads) and `blocked` (the rest: asleep in a system call, a lock or I/O).
// A stall that is mostly `ran` is work to move off the loop; one that is mostly `waited` is not the loop's doing.
// Plain JavaScript so that the built bin can load it without tsx.
import { appendFileSync, readFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

if (isMainThread) {
  const limitMs = Number(process.env.LOOP_MONITOR_MS ?? 100);
  const out = process.env.LOOP_MONITOR_OUT;
  const write = (line) => (out ? appendFileSync(out, `${line}\n`) : process.stderr.write(`${line}\n`));
  const statFile = `/proc/self/task/${process.pid}/schedstat`;
  /** [ns on a CPU, ns waiting for one] of the main thread, or undefined where the kernel has no such file. */
  const sched = () => {
    try {
      const [run, wait] = readFileSync(statFile, 'utf8').split(' ').map(Number);
      return [run, wait];
    } catch {
      return undefined;
    }
  };
  const t0 = performance.now();
  let last = t0;
  let before = sched();
  const timer = setInterval(() => {
    const now = performance.now();
    const gap = now - last;
    const after = sched();
    if (gap > limitMs) {
      const fields = {
        at: new Date().toISOString(),
        since_start_s: +((now - t0) / 1000).toFixed(1),
        gap_ms: Math.round(gap),
      };
      if (before && after) {
        const ran = (after[0] - before[0]) / 1e6;
        const waited = (after[1] - before[1]) / 1e6;
        Object.assign(fields, {
          ran_ms: Math.round(ran),
          waited_ms: Math.round(waited),
          blocked_ms: Math.max(0, Math.round(gap - ran - waited)),
        });
      }
      write(JSON.stringify({ loop_stall: fields }));
    }
    last = now;
    before = after;
  }, 10);
  timer.unref();
}
