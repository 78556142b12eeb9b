// Leiden alone on the topology benchmark's edge list (the KB workload's distinct facts, as bench/topology.ts
// builds them): modularity, wall and CPU time after N iterations. Usage: node --conditions=evident-source
// --import tsx bench/profile-leiden.ts [claims = 1000000] [iterations = 20].
import { performance } from 'node:perf_hooks';
import { csrFromEdges, leiden } from '@evident/graph-algorithms';
import { claimBatches, entityCount } from './workload.js';
const claims = Number(process.argv[2] ?? 1000000);
const iters = Number(process.argv[3] ?? 20);
const n = entityCount(claims);
const facts = new Set<string>();
const s: number[] = [];
const t: number[] = [];
for (const b of claimBatches(claims, 50000))
  for (const c of b) {
    const a = Number(c.subject[0].slice(1)),
      o = Number(c.object[0].slice(1));
    const key = `${a}|${c.predicate[0]}|${o}`;
    if (a === o || facts.has(key)) continue;
    facts.add(key);
    s.push(a);
    t.push(o);
  }
const csr = csrFromEdges(n, Int32Array.from(s), Int32Array.from(t));
console.log('n', n, 'nnz', csr.offsets[n]);
const c0 = process.cpuUsage();
const t0 = performance.now();
const r = leiden(csr, { seed: 0, maxIterations: iters });
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
