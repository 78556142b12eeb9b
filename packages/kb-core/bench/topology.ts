// bench:topology — computeTopology and generateStructuralEmbeddings({ dim: 64 }) on the KB benchmark's workload
// (default 1,000,000 claims over 100,000 entities): time, modularity and peak RSS above the open base. Baseline
// in the same run, on the same edge list: python-igraph + leidenalg (Leiden, modularity) and scipy's svds (k = 64),
// when python3 has them; the bench installs nothing and reports a missing baseline as missing.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { open } from '../src/index.js';
import { arg, claimBatches } from './workload.js';

const PY = `
import json, sys, time
out = {}
path = sys.argv[1]
try:
    import numpy as np
    data = np.loadtxt(path, delimiter=',', skiprows=1)
    s, t, w = data[:, 0].astype(int), data[:, 1].astype(int), data[:, 2]
    n = int(max(s.max(), t.max())) + 1
except Exception as e:
    print(json.dumps({'error': str(e)})); sys.exit(0)
try:
    import igraph as ig, leidenalg as la
    g = ig.Graph(n=n, edges=list(zip(s.tolist(), t.tolist())))
    g.es['weight'] = w.tolist()
    t0 = time.perf_counter()
    p = la.find_partition(g, la.ModularityVertexPartition, weights='weight', n_iterations=-1, seed=0)
    out['leidenalg_s'] = time.perf_counter() - t0
    out['leidenalg_modularity'] = p.modularity
except ImportError as e:
    out['leidenalg'] = 'missing: ' + str(e)
try:
    import scipy.sparse as sp
    from scipy.sparse.linalg import svds
    a = sp.coo_matrix((np.concatenate([w, w]), (np.concatenate([s, t]), np.concatenate([t, s]))), shape=(n, n)).tocsr()
    t0 = time.perf_counter()
    svds(a, k=64, random_state=0)
    out['scipy_svds_s'] = time.perf_counter() - t0
except ImportError as e:
    out['scipy_svds'] = 'missing: ' + str(e)
print(json.dumps(out))
`;

async function main() {
  const claims = arg('claims', 'BENCH_CLAIMS', 1_000_000);
  const dir = mkdtempSync(join(tmpdir(), 'evident-topology-bench-'));
  try {
    const db = await open(join(dir, 'bench.kb'));
    // The same edge list for the baselines: A_ij = distinct facts (subject, predicate, object) between i and j.
    const facts = new Set<string>();
    const pairs = new Map<string, number>();
    for (const batch of claimBatches(claims, 50_000)) {
      await db.ingestBatch(batch);
      for (const c of batch) {
        const a = Number(c.subject[0].slice(1));
        const b = Number(c.object[0].slice(1));
        const key = `${c.subject[0]}|${c.predicate[0]}|${c.object[0]}`;
        if (a === b || facts.has(key)) continue;
        facts.add(key);
        const pk = a < b ? `${a},${b}` : `${b},${a}`;
        pairs.set(pk, (pairs.get(pk) ?? 0) + 1);
      }
    }
    facts.clear();
    const csv = join(dir, 'edges.csv');
    writeFileSync(csv, `source,target,weight\n${[...pairs].map(([k, w]) => `${k},${w}`).join('\n')}\n`);
    pairs.clear();
    (globalThis as { gc?: () => void }).gc?.();
    const rssBase = process.memoryUsage().rss;

    let t0 = performance.now();
    const topo = await db.computeTopology({ seed: 0 });
    const topologyS = (performance.now() - t0) / 1000;
    const peakAfterTopology = process.resourceUsage().maxRSS * 1024;
    t0 = performance.now();
    const emb = await db.generateStructuralEmbeddings({ dim: 64 });
    const embeddingsS = (performance.now() - t0) / 1000;
    const peak = process.resourceUsage().maxRSS * 1024;
    await db.close();

    const py = spawnSync('python3', ['-c', PY, csv], { encoding: 'utf8', maxBuffer: 1 << 24 });
    let baseline: Record<string, unknown> = { python3: 'missing' };
    if (py.status === 0) baseline = JSON.parse(py.stdout.trim().split('\n').pop() ?? '{}');
    const ratio = (a: number, b: unknown) => (typeof b === 'number' && b > 0 ? a / b : null);
    console.log(
      JSON.stringify(
        {
          benchmark: 'topology',
          claims,
          entities: topo.entity_count,
          edges: topo.edge_count,
          figure: {
            compute_topology_s: topologyS,
            modularity: topo.levels[0]?.modularity ?? 0,
            topics_level0: topo.levels[0]?.topic_count ?? 0,
            structural_embeddings_s: embeddingsS,
            embeddings_converged: emb.converged,
            peak_rss_mb_above_base: Math.max(0, (Math.max(peak, peakAfterTopology) - rssBase) / 2 ** 20),
          },
          baseline,
          ratio: {
            topology_time_vs_leidenalg: ratio(topologyS, baseline.leidenalg_s),
            modularity_vs_leidenalg: ratio(topo.levels[0]?.modularity ?? 0, baseline.leidenalg_modularity),
            embeddings_time_vs_scipy_svds: ratio(embeddingsS, baseline.scipy_svds_s),
          },
        },
        null,
        2,
      ),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
