// Benchmark of the surrogate search alone (no docking): the seed request (EGFR P00533; K721, L834, T790; MW 300-500;
// logP 1-5; HBD <= 3; HBA <= 7), 100 molecules, against a baseline measured in the same run: random enumeration
// from the same fragment library, scored and filtered by the same evaluator, at the same number of evaluations.
//   npm run bench:surrogate -w @evident/compound-generation [-- --write-grid]
// Prints one JSON document. --write-grid also saves docs/generated-molecules.svg (top 16 molecules).
import { writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  generateFromInput,
  randomEnumerationBaseline,
  validateRequest,
  depictSvg,
  svgGrid,
  loadRDKit,
} from '@evident/compound-generation';
import { tanimoto } from '../src/chem/fingerprint.js';
import type { Evaluated } from '../src/scoring/evaluate.js';

const request = {
  target_uniprot: 'P00533',
  binding_site: { residues: ['K721', 'L834', 'T790'] },
  constraints: { mw_range: [300, 500], logp_range: [1, 5], hbd_max: 3, hba_max: 7 },
  num_molecules: 100,
  options: { docking: false },
};

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
const r4 = (x: number) => Math.round(x * 1e4) / 1e4;

function setMetrics(sel: Evaluated[]) {
  const d: number[] = [];
  for (let i = 0; i < sel.length; i++)
    for (let j = i + 1; j < sel.length; j++) d.push(1 - tanimoto(sel[i]!.fp, sel[j]!.fp));
  return {
    returned: sel.length,
    uniqueness: r4(new Set(sel.map((e) => e.smiles)).size / (sel.length || 1)),
    internal_diversity: r4(mean(d)),
    mean_qed: r4(mean(sel.map((e) => e.properties.qed))),
    mean_sa: r4(mean(sel.map((e) => e.properties.sa_score))),
    mean_site_complementarity: r4(mean(sel.map((e) => e.scores.site_complementarity))),
    mean_score: r4(mean(sel.map((e) => e.scores.total))),
    constraint_pass_rate: r4(sel.filter((e) => e.violations.length === 0).length / (sel.length || 1)),
  };
}

const input = await validateRequest(request);
await loadRDKit();

const t0 = performance.now();
const result = await generateFromInput(input);
const gaSeconds = (performance.now() - t0) / 1000;
const s = result.summary;

const t1 = performance.now();
const baseline = await randomEnumerationBaseline(input, s.evaluations);
const baseSeconds = (performance.now() - t1) / 1000;
const base = setMetrics(baseline.selected);

const ga = {
  wall_time_s: r4(gaSeconds),
  evaluations: s.evaluations,
  evaluations_per_s: r4(s.evaluations / gaSeconds),
  generations: s.generations,
  stop_reason: s.stop_reason,
  returned: s.returned,
  validity: s.validity,
  uniqueness: s.uniqueness,
  internal_diversity: s.internal_diversity,
  mean_qed: s.mean_qed,
  mean_sa: s.mean_sa,
  mean_site_complementarity: r4(mean(result.molecules.map((m) => m.scores.site_complementarity))),
  mean_score: s.mean_total,
  constraint_pass_rate: s.constraint_pass_rate,
  candidate_validity: s.candidate_validity,
  candidate_uniqueness: s.candidate_uniqueness,
};

const report = {
  benchmark: 'compound-generation: seed request, 100 molecules',
  request,
  ga,
  baseline: {
    method: 'random enumeration from the same fragment library, same filters, equal evaluations',
    wall_time_s: r4(baseSeconds),
    evaluations: baseline.evaluator.stats.evaluations,
    ...base,
  },
  ratio: {
    mean_score: r4(ga.mean_score / (base.mean_score || 1)),
    mean_qed: r4(ga.mean_qed / (base.mean_qed || 1)),
    returned: r4(ga.returned / (base.returned || 1)),
  },
  goals: {
    under_60_s: gaSeconds < 60,
    all_valid_unique_passing:
      s.returned === 100 && s.validity === 1 && s.uniqueness === 1 && s.constraint_pass_rate === 1,
    mean_qed_at_least_0_6: s.mean_qed >= 0.6,
    ahead_of_baseline_on_mean_score: ga.mean_score > base.mean_score,
  },
};
console.log(JSON.stringify(report, null, 2));

if (process.argv.includes('--write-grid')) {
  const rd = await loadRDKit();
  const cells = result.molecules.slice(0, 16).map((m) => ({
    svg: depictSvg(rd, m.smiles, 300, 240),
    legend: `#${m.rank}  QED ${m.properties.qed.toFixed(2)}  SA ${m.properties.sa_score.toFixed(1)}  MW ${m.properties.mw.toFixed(0)}  logP ${m.properties.logp.toFixed(1)}`,
  }));
  const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'generated-molecules.svg');
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, svgGrid(cells, 4));
  console.error(`wrote ${out}`);
}
