// Where each strategy of bench/docking-opt.ts stops drawing from the starting pool, for the benchmark's seeds and
// hard filters: the first call that scores a molecule not in the pool (an offspring), and the first call at which
// the default optimizer and the graph GA score different molecules. Those draws do not depend on the scores, so a
// cheap RDKit objective (QED) stands in for docking here; no docking runs.
//   node --conditions=evident-source --import tsx bench/docking-opt-phase.ts [--seeds 5] [--budget 400]
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { defaultPool, loadRDKit, optimize, parseScoringProfile, type StrategyName } from '@evident/compound-generation';
import { admitsFor } from './docking-opt-filters.js';

const { values } = parseArgs({
  options: { seeds: { type: 'string', default: '5' }, budget: { type: 'string', default: '400' } },
});
const rd = await loadRDKit();
const admits = admitsFor(rd);
const canonical = (s: string) => {
  const m = rd.get_mol(s);
  try {
    return m?.is_valid() ? m.get_smiles() : null;
  } finally {
    m?.delete();
  }
};
const pool = new Set(defaultPool().map(canonical));
const text = readFileSync(fileURLToPath(new URL('../profiles/pmo/qed.toml', import.meta.url)), 'utf8');
const profile = await parseScoringProfile(text, { source: 'qed.toml' });
const out = [];
for (let seed = 0; seed < Number(values.seeds); seed++) {
  const calls: Record<string, string[]> = {};
  for (const strategy of ['default', 'graph_ga'] as StrategyName[]) {
    const r = await optimize({
      profile,
      budget: { max_oracle_calls: Number(values.budget) },
      seed,
      strategy,
      filter: admits,
    });
    calls[strategy] = r.calls.map((c) => c.smiles);
  }
  const firstOffspring = (xs: string[]) => xs.findIndex((s) => !pool.has(s)) + 1;
  const d = calls.default!;
  const g = calls.graph_ga!;
  out.push({
    seed,
    default_first_offspring_call: firstOffspring(d),
    graph_ga_first_offspring_call: firstOffspring(g),
    first_call_where_they_differ: d.findIndex((s, i) => g[i] !== s) + 1,
  });
}
profile.dispose();
console.log(JSON.stringify(out, null, 2));
