// Leiden alone on the topology benchmark's edge list (the KB workload's distinct facts, as bench/topology.ts
// builds them): modularity, wall and CPU time after N iterations. Usage: node --conditions=evident-source
// --import tsx bench/profile-leiden.ts [claims = 1000000] [iterations = 20] [restarts = 1]; THREADS=k sets the
// threads (default: leiden's).
import { performance } from 'node:perf_hooks';
import { csrFromEdges, leiden } from '@evident/graph-algorithms';
import { factEdges } from './workload.js';
const claims = Number(process.argv[2] ?? 1000000);
const iters = Number(process.argv[3] ?? 20);
const restarts = Number(process.argv[4] ?? 1);
const { n, sources, targets } = factEdges(claims);
const csr = csrFromEdges(n, sources, targets);
console.log('n', n, 'nnz', csr.offsets[n]);
const c0 = process.cpuUsage();
const t0 = performance.now();
const threads = process.env.THREADS ? Number(process.env.THREADS) : undefined;
const r = leiden(csr, { seed: 0, maxIterations: iters, restarts, threads });
const cpu = process.cpuUsage(c0);
console.log(
  JSON.stringify({
    iters: r.iterations,
    q: r.modularity,
    count: r.count,
    wall_s: (performance.now() - t0) / 1000,
    cpu_s: (cpu.user + cpu.system) / 1e6,
  }),
);
