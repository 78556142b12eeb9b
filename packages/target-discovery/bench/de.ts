// Benchmark (npm run bench): limma on ALL BCR/ABL vs NEG against R limma's time, and the voom pipeline on
// a synthetic 60,000 x 1,000 count matrix (time and peak RSS against the goals).
// Prints one JSON document on stdout. `--skip-large` runs only the ALL part.
import { readFileSync } from 'node:fs';
import { referencePath } from '@evident/testkit';
import {
  adjustBH,
  buildDataset,
  buildDesign,
  differentialExpression,
  discoverTargets,
  eBayes,
  lmFit,
  parseMetadata,
  parseNumericTable,
  syntheticCounts,
  type Design,
} from '../src/index.js';

const R_LIMMA_ALL_SECONDS = 0.48; // reference README: R limma lmFit+eBayes on ALL, one core
const LARGE_GOAL_SECONDS = 30;
const LARGE_GOAL_RSS_MB = 2048;

function time<T>(fn: () => T): [T, number] {
  const t0 = process.hrtime.bigint();
  const v = fn();
  return [v, Number(process.hrtime.bigint() - t0) / 1e9];
}

function medianOf(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s[Math.floor(s.length / 2)];
  if (m === undefined) throw new Error('medianOf: no values');
  return m;
}

const exprText = readFileSync(referencePath('target-discovery', 'all_bcrabl_expr.csv'), 'utf8');
const metaText = readFileSync(referencePath('target-discovery', 'all_bcrabl_meta.csv'), 'utf8');
const spec = { conditionColumn: 'mol.biol', caseValue: 'BCR/ABL', controlValue: 'NEG' };

// Parse once (timed separately), then time the limma step exactly as R's figure measures it.
const [raw, parseSeconds] = time(() => parseNumericTable(exprText));
const ds = buildDataset(raw, parseMetadata(metaText), spec);
const { design } = buildDesign(ds, spec.conditionColumn, spec.caseValue, spec.controlValue);
const limmaRuns: number[] = [];
for (let i = 0; i < 7; i++) {
  const [, s] = time(() => adjustBH(eBayes(lmFit(ds.values, design), 1).pValue));
  limmaRuns.push(s);
}
const limmaSeconds = medianOf(limmaRuns.slice(2)); // first runs warm the JIT
const [, e2eSeconds] = time(() =>
  discoverTargets({
    expression_matrix: exprText,
    metadata: metaText,
    condition_column: 'mol.biol',
    case_value: 'BCR/ABL',
    control_value: 'NEG',
  }),
);

const out: Record<string, unknown> = {
  all_bcrabl_limma: {
    features: ds.values.nrow,
    samples: ds.values.ncol,
    figure: { seconds: round(limmaSeconds), what: 'lmFit + eBayes + BH, median of 5 warm runs' },
    baseline: {
      seconds: R_LIMMA_ALL_SECONDS,
      what: 'R 4.2.2 limma 3.54.1 lmFit + eBayes (reference README; R not installed here)',
    },
    ratio: round(limmaSeconds / R_LIMMA_ALL_SECONDS),
    also: {
      csv_parse_seconds: round(parseSeconds),
      whole_discovery_seconds: round(e2eSeconds),
      note: 'whole discovery = parse + limma + gene table + ranking + plots, first (cold) run',
    },
  },
};

if (!process.argv.includes('--skip-large')) {
  const G = 60_000;
  const n = 1_000;
  const [gen, genSeconds] = time(() => syntheticCounts(G, n, 11));
  const x = new Float64Array(n * 2);
  x.fill(1, 0, n);
  x.set(gen.isCase, n);
  const d: Design = { n, p: 2, x, columns: ['(Intercept)', 'case'] };
  const rssBefore = process.memoryUsage().rss;
  const cpu0 = process.cpuUsage();
  const [de, seconds] = time(() =>
    differentialExpression({
      featureIds: Array.from({ length: G }, (_, i) => `g${i}`),
      sampleIds: Array.from({ length: n }, (_, j) => `s${j}`),
      values: { nrow: G, ncol: n, data: gen.data },
      design: d,
      coefficient: 1,
      groupSizes: [n / 2, n / 2],
    }),
  );
  const cpu = process.cpuUsage(cpu0);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  const peakRssMb = process.resourceUsage().maxRSS / 1024;
  out.synthetic_counts_60000x1000 = {
    pipeline: de.report.name,
    features_tested: de.report.features_tested,
    figure: { seconds: round(seconds), cpu_seconds: round(cpuSeconds), peak_rss_mb: Math.round(peakRssMb) },
    baseline: { seconds: LARGE_GOAL_SECONDS, peak_rss_mb: LARGE_GOAL_RSS_MB, what: 'goal from the issue' },
    ratio: { seconds: round(seconds / LARGE_GOAL_SECONDS), peak_rss: round(peakRssMb / LARGE_GOAL_RSS_MB) },
    also: {
      generate_seconds: round(genSeconds),
      rss_before_pipeline_mb: Math.round(rssBefore / 2 ** 20),
      note: 'seconds = wall clock (inflated when the machine is shared), cpu_seconds = CPU time of this process; pipeline from an in-memory matrix (filterByExpr, TMM, voom, weighted lmFit, eBayes, BH); peak RSS includes the 480 MB input',
    },
  };
}

function round(v: number): number {
  return Math.round(v * 1000) / 1000;
}

process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
