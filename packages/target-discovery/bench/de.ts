// Benchmark (npm run bench:de): every figure beside R on the same data in the same run (see r-baseline.ts).
// - limma on ALL BCR/ABL vs NEG (12,625 x 111) against R limma;
// - DESeq2 and edgeR-QL on the simulated 10,000 x 12 counts against R's DESeq() + results() and edgeR's QL;
// - unless --skip-large: a seeded synthetic 60,000 x 1,000 count set, voom and DESeq2 each in a child process
//   (own time, CPU and peak RSS), R's DESeq() and edgeR QL on the same counts (bounded by --r-timeout=SECONDS, default 3600).
// Prints one JSON document on stdout.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { referencePath } from '@evident/testkit';
import {
  adjustBH,
  buildDataset,
  buildDesign,
  deseq2,
  differentialExpression,
  edgerQl,
  discoverTargets,
  eBayes,
  lmFit,
  parseMetadata,
  parseNumericTable,
  syntheticCounts,
  type Design,
} from '../src/index.js';
import { defaultThreads } from '../src/parallel/pool.js';
import { rScripts, runR, type RBaseline } from './r-baseline.js';

// The machine is shared: the load averages at the start and the end say how contended every figure is.
const loadAtStart = loadavg().map(round);
const startedAt = new Date().toISOString();
/** Each figure also goes to stderr as soon as it is measured, so a long run shows its same-run figures early. */
const progress = <T>(label: string, v: T): T => {
  process.stderr.write(
    `${new Date().toISOString()} load ${loadavg().map(round).join(' ')} ${label} ${JSON.stringify(v)}\n`,
  );
  return v;
};

const LARGE_GOAL_RSS_MB = 2048;
const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const rTimeout = Number(arg('r-timeout') ?? 3600);
// --large-genes / --large-samples shrink the large case for a quick check of the harness; figures are for 60,000 x 1,000.
const LARGE = { G: Number(arg('large-genes') ?? 60_000), n: Number(arg('large-samples') ?? 1_000), seed: 11 };

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

function ratio(ours: number, base: RBaseline): number | string {
  return 'seconds' in base
    ? round(ours / base.seconds)
    : 'timed_out_after_seconds' in base
      ? `< ${round(ours / base.timed_out_after_seconds)}`
      : 'baseline missing';
}

/** Our CPU seconds over R's (both CPU time: R's user + system from system.time). */
function cpuRatio(ours: number, base: RBaseline): number | string {
  return 'cpu_seconds' in base && base.cpu_seconds ? round(ours / base.cpu_seconds) : 'no R CPU time';
}

function largeDesign(isCase: Uint8Array): Design {
  const { n } = LARGE;
  const x = new Float64Array(n * 2);
  x.fill(1, 0, n);
  x.set(isCase, n);
  return { n, p: 2, x, columns: ['(Intercept)', 'case'] };
}

// Child mode: one large pipeline in a fresh process, so its peak RSS is its own.
const child = arg('child');
if (child) {
  const { G, n, seed } = LARGE;
  const gen = syntheticCounts(G, n, seed);
  const values = { nrow: G, ncol: n, data: gen.data };
  const rssBefore = process.memoryUsage().rss;
  const cpu0 = process.cpuUsage();
  const [tested, seconds] = time(() => {
    if (child === 'deseq2') {
      const r = deseq2(values, largeDesign(gen.isCase), 1, { singleTwoLevelFactor: true });
      return r.pvalue.filter(Number.isFinite).length;
    }
    if (child === 'edger-ql') return edgerQl(values, largeDesign(gen.isCase), 1, [n / 2, n / 2]).F.length;
    return differentialExpression({
      featureIds: Array.from({ length: G }, (_, i) => `g${i}`),
      sampleIds: Array.from({ length: n }, (_, j) => `s${j}`),
      values,
      design: largeDesign(gen.isCase),
      coefficient: 1,
      groupSizes: [n / 2, n / 2],
      method: 'voom',
    }).report.features_tested;
  });
  const cpu = process.cpuUsage(cpu0);
  process.stdout.write(
    JSON.stringify({
      seconds,
      cpu_seconds: (cpu.user + cpu.system) / 1e6,
      peak_rss_mb: process.resourceUsage().maxRSS / 1024,
      threads: child === 'voom' ? 1 : defaultThreads(G * n),
      rss_before_pipeline_mb: rssBefore / 2 ** 20,
      features_tested: tested,
    }),
  );
  process.exit(0);
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
const limmaSeconds = progress('limma', medianOf(limmaRuns.slice(2))); // first runs warm the JIT
const [, e2eSeconds] = time(() =>
  discoverTargets({
    expression_matrix: exprText,
    metadata: metaText,
    condition_column: 'mol.biol',
    case_value: 'BCR/ABL',
    control_value: 'NEG',
  }),
);

const rLimma = progress(
  'rLimma',
  runR(
    rScripts.limmaAll(
      referencePath('target-discovery', 'all_bcrabl_expr.csv'),
      referencePath('target-discovery', 'all_bcrabl_meta.csv'),
    ),
    ['limma'],
    'R lmFit + eBayes + topTable, mean of 5 runs, same data, this run',
    600,
  ),
);

// DESeq2 on the simulated counts (10,000 x 12), from the parsed matrix, as R's DESeq() + results().
const simCounts = referencePath('target-discovery', 'sim_rnaseq_counts.csv');
const simMeta = referencePath('target-discovery', 'sim_rnaseq_meta.csv');
const simRaw = parseNumericTable(readFileSync(simCounts, 'utf8'));
const simDs = buildDataset(simRaw, parseMetadata(readFileSync(simMeta, 'utf8')), {
  conditionColumn: 'condition',
  caseValue: 'tumor',
  controlValue: 'control',
});
const simDesign = buildDesign(simDs, 'condition', 'tumor', 'control').design;
const deseqRuns: number[] = [];
for (let i = 0; i < 3; i++)
  deseqRuns.push(time(() => deseq2(simDs.values, simDesign, 1, { singleTwoLevelFactor: true }))[1]);
const deseqSeconds = progress('sim deseq2', medianOf(deseqRuns));
const rDeseq = progress(
  'rDeseq',
  runR(rScripts.deseq2Csv(simCounts, simMeta), ['DESeq2'], 'R DESeq() + results(), same data, this run', 600),
);
const edgerRuns: number[] = [];
for (let i = 0; i < 3; i++) edgerRuns.push(time(() => edgerQl(simDs.values, simDesign, 1, [6, 6]))[1]);
const edgerSeconds = progress('sim edger-ql', medianOf(edgerRuns));
const rEdger = progress(
  'rEdger',
  runR(
    rScripts.edgerQlCsv(simCounts, simMeta),
    ['edgeR'],
    'R filterByExpr + calcNormFactors + estimateDisp + glmQLFit + glmQLFTest, same data, this run',
    600,
  ),
);

const out: Record<string, unknown> = {
  all_bcrabl_limma: {
    features: ds.values.nrow,
    samples: ds.values.ncol,
    figure: { seconds: round(limmaSeconds), what: 'lmFit + eBayes + BH, median of 5 warm runs' },
    baseline: rLimma,
    ratio: ratio(limmaSeconds, rLimma),
    also: {
      csv_parse_seconds: round(parseSeconds),
      whole_discovery_seconds: round(e2eSeconds),
      note: 'whole discovery = parse + limma + gene table + ranking + plots, first (cold) run',
    },
  },
  sim_rnaseq_deseq2: {
    features: simDs.values.nrow,
    samples: simDs.values.ncol,
    figure: {
      seconds: round(deseqSeconds),
      first_run_seconds: round(deseqRuns[0]!),
      what: 'DESeq() + results() equivalent, median of 3 runs',
    },
    baseline: rDeseq,
    ratio: ratio(deseqSeconds, rDeseq),
  },
  sim_rnaseq_edger_ql: {
    features: simDs.values.nrow,
    samples: simDs.values.ncol,
    figure: {
      seconds: round(edgerSeconds),
      first_run_seconds: round(edgerRuns[0]!),
      what: 'filterByExpr + TMM + estimateDisp + glmQLFit + glmQLFTest, median of 3 runs',
    },
    baseline: rEdger,
    ratio: ratio(edgerSeconds, rEdger),
  },
};

if (!process.argv.includes('--skip-large')) {
  const { G, n, seed } = LARGE;
  const runChild = (method: string) => {
    const sizeArgs = [`--large-genes=${G}`, `--large-samples=${n}`];
    const r = spawnSync(process.execPath, [...process.execArgv, process.argv[1]!, `--child=${method}`, ...sizeArgs], {
      encoding: 'utf8',
      maxBuffer: 1 << 20,
    });
    if (r.status !== 0) throw new Error(`large ${method} failed: ${r.stderr}`);
    const v = JSON.parse(r.stdout) as Record<string, number>;
    v.load_after = loadavg()[0]!;
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, round(x)]));
  };
  // The R baseline reads the very same counts (same generator, same seed) from a binary file.
  const dir = mkdtempSync(join(tmpdir(), 'evident-bench-de-'));
  const file = join(dir, 'counts.int32');
  const gen = syntheticCounts(G, n, seed);
  writeFileSync(file, Int32Array.from(gen.data));
  const caseFrom = gen.isCase.indexOf(1);
  const voomRun = progress('large voom', runChild('voom'));
  const deseqRun = progress('large deseq2', runChild('deseq2'));
  const edgerRun = progress('large edger-ql', runChild('edger-ql'));
  const rLargeEdger = progress(
    'large R edgeR',
    runR(rScripts.edgerQlBin(file, G, n, caseFrom), ['edgeR'], 'R edgeR QL pipeline, same counts, this run', rTimeout),
  );
  const rLarge = progress(
    'large R DESeq2',
    runR(
      rScripts.deseq2Bin(file, G, n, caseFrom),
      ['DESeq2'],
      'R DESeq() + results(), same counts, this run',
      rTimeout,
    ),
  );
  rmSync(dir, { recursive: true, force: true });
  out[`synthetic_counts_${G}x${n}`] = {
    seed,
    voom: { figure: voomRun, baseline: { peak_rss_mb: LARGE_GOAL_RSS_MB, what: 'memory goal from the issue' } },
    deseq2: {
      figure: deseqRun,
      baseline: rLarge,
      ratio: {
        seconds: ratio(deseqRun.seconds!, rLarge),
        cpu_seconds_vs_r_cpu: cpuRatio(deseqRun.cpu_seconds!, rLarge),
        peak_rss_vs_goal: round(deseqRun.peak_rss_mb! / LARGE_GOAL_RSS_MB),
      },
    },
    edger_ql: {
      figure: edgerRun,
      baseline: rLargeEdger,
      ratio: {
        seconds: ratio(edgerRun.seconds!, rLargeEdger),
        cpu_seconds_vs_r_cpu: cpuRatio(edgerRun.cpu_seconds!, rLargeEdger),
        peak_rss_vs_goal: round(edgerRun.peak_rss_mb! / LARGE_GOAL_RSS_MB),
      },
    },
    cores: availableParallelism(),
    note: 'each pipeline runs from an in-memory matrix in its own process (peak RSS includes the 480 MB input); seconds = wall clock on a shared machine, cpu_seconds = CPU time of all threads',
  };
}
out.run = {
  started_at: startedAt,
  finished_at: new Date().toISOString(),
  load_average_at_start: loadAtStart,
  load_average_at_end: loadavg().map(round),
};

function round(v: number): number {
  return Math.round(v * 1000) / 1000;
}

process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
