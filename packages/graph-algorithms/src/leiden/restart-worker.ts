// A worker of the restart team (restart-team.ts): claims restarts until none is left or the caller says stop,
// writing each result into the shared arrays before marking it done. Each iteration also goes to the caller by
// message: a caller that awaits the team (runRestartsOffThread) reports progress from them; a blocked one never
// reads them.
import { parentPort, workerData } from 'node:worker_threads';
import { lowerThreadPriority } from '@evident/worker-threads';
import { BEAT, NEXT, type RestartShared, STOP } from './restart-team.js';
import { leidenRun } from './run.js';
import { LeidenScratch } from './scratch.js';

const s = workerData as RestartShared;
lowerThreadPriority(s.nice ?? 0); // leidenAsync's `nice`: below the caller's event loop
const { graph, base, settings, restarts, control } = s;
const scratch = new LeidenScratch();
const stopped = new Error('stopped');
try {
  for (;;) {
    if (Atomics.load(control, STOP) === 1) break;
    const r = Atomics.add(control, NEXT, 1);
    if (r >= restarts) break;
    Atomics.add(control, BEAT, 1);
    let iterations = 0;
    const run = leidenRun(
      graph,
      base,
      scratch,
      { ...settings, seed: settings.seed + r },
      () => {
        if (Atomics.load(control, STOP) === 1) throw stopped;
        Atomics.add(control, BEAT, 1);
        parentPort?.postMessage({ restart: r, iterations: iterations++ });
      },
      () => {},
    );
    s.memberships.set(run.membership, r * graph.n);
    s.modularities[r] = run.modularity;
    s.iterations[r] = run.iterations;
    s.counts[r] = run.count;
    Atomics.store(s.done, r, 1);
    Atomics.notify(s.done, r);
  }
} catch (e) {
  if (e !== stopped) throw e;
}
