// leidenIncremental alone on the topology benchmark's edge list: a converged leiden() (one run) on the workload's
// graph, then a batch of new edges between random entities, then the incremental update against leiden() from
// scratch (one run) on the same new graph: times and modularity. Usage: node --conditions=evident-source --import
// tsx bench/profile-leiden-incremental.ts [claims = 1000000] [batch edges = claims / 1000] [restarts = 1].
import { performance } from 'node:perf_hooks';
import { csrFromEdges, leiden, leidenIncremental } from '@evident/graph-algorithms';
import { factEdges, seededRandom } from './workload.js';

const claims = Number(process.argv[2] ?? 1_000_000);
const batch = Number(process.argv[3] ?? Math.round(claims / 1000));
const restarts = Number(process.argv[4] ?? 1);
const { n, sources, targets } = factEdges(claims);
const csr = csrFromEdges(n, sources, targets);
let t0 = performance.now();
const before = leiden(csr, { seed: 0, restarts, threads: 1 });
const beforeS = (performance.now() - t0) / 1000;
const rand = seededRandom(0xba7c4);
const s = Array.from(sources);
const t = Array.from(targets);
const changed = new Set<number>();
for (let i = 0; i < batch; i++) {
  const a = Math.floor(rand() * n);
  const b = (a + 1 + Math.floor(rand() * (n - 1))) % n;
  s.push(a);
  t.push(b);
  changed.add(a);
  changed.add(b);
}
const after = csrFromEdges(n, Int32Array.from(s), Int32Array.from(t));
t0 = performance.now();
const inc = leidenIncremental(after, before.membership, Int32Array.from(changed), { seed: 0, trusted: true });
const incS = (performance.now() - t0) / 1000;
t0 = performance.now();
const full = leiden(after, { seed: 0, restarts, threads: 1 });
const fullS = (performance.now() - t0) / 1000;
console.log(
  JSON.stringify({
    n,
    nnz: csr.offsets[n],
    batch_edges: batch,
    changed_entities: changed.size,
    before_s: beforeS,
    before_modularity: before.modularity,
    incremental_s: incS,
    incremental_modularity: inc.modularity,
    incremental_iterations: inc.iterations,
    affected: inc.affectedCount,
    full_s: fullS,
    full_modularity: full.modularity,
    full_iterations: full.iterations,
    gap: full.modularity - inc.modularity,
  }),
);
