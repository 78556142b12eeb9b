import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { csrFromEdges, randomizedSvd } from '@evident/graph-algorithms';
import { claimBatches, entityCount } from './workload.js';
const claims = Number(process.argv[2] ?? 20000);
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
const t0 = performance.now();
const r = randomizedSvd(csr, 64, {
  seed: 0,
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
);
if (process.argv[3]) {
  writeFileSync(process.argv[3], `${s.map((a, i) => `${a},${t[i]}`).join('\n')}\n`);
}
