import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { csrFromEdges, randomizedSvd } from '@evident/graph-algorithms';
import { factEdges } from './workload.js';
const claims = Number(process.argv[2] ?? 20000);
const { n, sources, targets } = factEdges(claims);
const csr = csrFromEdges(n, sources, targets);
console.log('n', n, 'nnz', csr.offsets[n]);
const t0 = performance.now();
const r = randomizedSvd(csr, 64, {
  seed: 0,
  threads: process.env.THREADS ? Number(process.env.THREADS) : undefined,
  basisSize: process.env.BASIS ? Number(process.env.BASIS) : undefined,
  maxProducts: Number(process.env.MAXP ?? 100000),
  hooks: {
    progress: (_s, f) => console.log('progress', f.toExponential(2), ((performance.now() - t0) / 1000).toFixed(1)),
  },
});
console.log(
  'time',
  ((performance.now() - t0) / 1000).toFixed(2),
  's products',
  r.products,
  'converged',
  r.converged,
  'res',
  r.residual,
  'top',
  Array.from(r.values.slice(0, 3)),
  'last',
  r.values[63],
  'workerShare',
  r.workerShare.toFixed(3),
  'cpu',
  (process.cpuUsage().user / 1e6).toFixed(1),
);
if (process.argv[3]) {
  writeFileSync(process.argv[3], `${Array.from(sources, (a, i) => `${a},${targets[i]}`).join('\n')}\n`);
}
