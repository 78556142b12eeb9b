// Benchmark (npm run bench:enrich): camera and fry over every GO BP set of 15-500 tested genes, and goana, on a
// simulated job (default 20,000 genes x 100 samples, log-scale, limma), beside R's limma on the same values, sets
// and design in the same run (R's own system.time of each call; camera's and fry's sets as ids2indices gives them,
// built outside the timing as ours are built inside it). Prints one JSON document on stdout.
//   --genes=N --samples=N shrink the job for a quick check of the harness (the figures are 20,000 x 100).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { eBayes, enrich, geneIndex, goGeneSets, lmFit, rng, type Design, type FitContext } from '../src/index.js';
import { runR, type RBaseline } from './r-baseline.js';

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const G = Number(arg('genes') ?? 20_000);
const n = Number(arg('samples') ?? 100);
const round = (x: number) => Math.round(x * 1e4) / 1e4;
const loadAtStart = loadavg().map(round);

function time<T>(fn: () => T): [T, number] {
  const t0 = process.hrtime.bigint();
  const v = fn();
  return [v, Number(process.hrtime.bigint() - t0) / 1e9];
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

// Genes: GO-annotated genes of the gene table first (as a real job's genes mostly are), then others.
const go = goGeneSets();
const annotated = new Set<number>();
for (const sets of go.byCollection.values()) for (const s of sets) for (const e of s.entrez) annotated.add(e);
const table = geneIndex().all();
const genes = [
  ...table.filter((g) => annotated.has(Number(g.entrez_id))),
  ...table.filter((g) => !annotated.has(Number(g.entrez_id))),
].slice(0, G);
if (genes.length < G) throw new Error(`the gene table has ${genes.length} genes, fewer than ${G}`);

// Values: normal noise with gene-specific sd, 5% of genes shifted between the groups, one correlated module of 200.
const r = rng(42);
const normal = () => Math.sqrt(-2 * Math.log(r() || 1e-300)) * Math.cos(2 * Math.PI * r());
const data = new Float64Array(G * n);
const isCase = (j: number) => (j >= n / 2 ? 1 : 0);
const module = Array.from({ length: n }, normal);
for (let g = 0; g < G; g++) {
  const sd = 0.2 + r();
  const shift = r() < 0.05 ? (r() < 0.5 ? -1 : 1) * (0.5 + r()) : 0;
  const inModule = g % 100 === 0;
  for (let j = 0; j < n; j++)
    data[g * n + j] = 6 + sd * normal() + shift * isCase(j) + (inModule ? 0.5 * module[j]! : 0);
}
const x = new Float64Array(n * 2).fill(1, 0, n);
for (let j = 0; j < n; j++) x[n + j] = isCase(j);
const design: Design = { n, p: 2, x, columns: ['(Intercept)', 'case'] };
const values = { nrow: G, ncol: n, data };
const stats = eBayes(lmFit(values, design), 1);
const ctx: FitContext = {
  featureIds: genes.map((g) => g.symbol),
  genes,
  logFC: stats.logFC,
  pValue: stats.pValue,
  fit: { values, design, coefficient: 1 },
  pipeline: 'limma',
};

/** Median wall seconds and mean CPU seconds (user + system, this process) of k warm runs. */
const runs = (fn: () => unknown, k: number): { seconds: number; cpu: number } => {
  fn(); // warm the JIT
  const s: number[] = [];
  const c0 = process.cpuUsage();
  for (let i = 0; i < k; i++) s.push(time(fn)[1]);
  const c = process.cpuUsage(c0);
  return { seconds: median(s), cpu: (c.user + c.system) / 1e6 / k };
};
const bp = { collections: ['GO:BP' as const] };
const cameraSeconds = runs(() => enrich(ctx, { ...bp, methods: ['camera'] }), 3);
const frySeconds = runs(() => enrich(ctx, { ...bp, methods: ['fry'] }), 3);
const goanaSeconds = runs(() => enrich(ctx, { methods: ['goana'] }), 3);
const setsTested = enrich(ctx, { ...bp, methods: ['camera'] }).summary.sets_tested['GO:BP'];

// R on the same values: binary float64 genes x samples, Entrez ids, the same design.
const dir = mkdtempSync(join(tmpdir(), 'evident-enrich-'));
let rCamera: RBaseline;
let rFry: RBaseline;
let rGoana: RBaseline;
try {
  const bin = join(dir, 'values.bin');
  writeFileSync(bin, Buffer.from(data.buffer));
  const ids = join(dir, 'entrez.txt');
  writeFileSync(ids, `${genes.map((g) => g.entrez_id).join('\n')}\n`);
  const setup = `
suppressPackageStartupMessages({ library(limma); library(org.Hs.eg.db) })
y <- matrix(readBin(${JSON.stringify(bin)}, "double", n=${G * n}), nrow=${G}, ncol=${n}, byrow=TRUE)
entrez <- readLines(${JSON.stringify(ids)})
design <- cbind(1, rep(c(0, 1), each=${n / 2}))
fit <- eBayes(lmFit(y, design))
pairs <- AnnotationDbi::toTable(org.Hs.egGO2ALLEGS)
pairs <- pairs[pairs$Ontology == "BP" & !duplicated(pairs[, c("gene_id", "go_id")]) & pairs$gene_id %in% entrez, ]
index <- ids2indices(split(pairs$gene_id, pairs$go_id), entrez)
index <- index[lengths(index) >= 15 & lengths(index) <= 500]
`;
  const timed = (call: string) =>
    `${setup}invisible(${call}); st <- system.time(for (i in 1:3) v <- ${call}) / 3\ncat(st[["elapsed"]], st[["user.self"]] + st[["sys.self"]], "\\n")`;
  rCamera = runR(
    timed('camera(y, index, design, contrast=2)'),
    ['limma'],
    'R camera, mean of 3 runs, same values and sets',
    1800,
  );
  rFry = runR(
    timed('fry(y, index, design, contrast=2)'),
    ['limma'],
    'R fry, mean of 3 runs, same values and sets',
    1800,
  );
  rGoana = runR(
    timed('goana(fit, coef=2, geneid=entrez)'),
    ['limma'],
    'R goana on the fit (all GO terms, its own GO lookup), mean of 3 runs',
    1800,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const ratio = (ours: number, base: RBaseline) =>
  'seconds' in base
    ? round(ours / base.seconds)
    : 'timed_out_after_seconds' in base
      ? 'R timed out'
      : 'baseline missing';
const cpuRatio = (ours: number, base: RBaseline) =>
  'cpu_seconds' in base && base.cpu_seconds ? round(ours / base.cpu_seconds) : 'no R CPU time';
// On a shared machine the wall clock also counts waiting for a core: CPU seconds are reported beside it.
const figure = (what: string, ours: { seconds: number; cpu: number }, base: RBaseline) => ({
  figure: { seconds: round(ours.seconds), cpu_seconds: round(ours.cpu), what },
  baseline: base,
  ratio: ratio(ours.seconds, base),
  cpu_ratio: cpuRatio(ours.cpu, base),
});
process.stdout.write(
  `${JSON.stringify(
    {
      job: { genes: G, samples: n, go_bp_sets_tested: setsTested },
      camera_go_bp: figure('enrich camera over GO BP (15-500), median of 3 warm runs', cameraSeconds, rCamera),
      fry_go_bp: figure('enrich fry over GO BP (15-500), median of 3 warm runs', frySeconds, rFry),
      goana_go: figure('enrich goana over GO BP, CC, MF, median of 3 warm runs', goanaSeconds, rGoana),
      load: { start: loadAtStart, end: loadavg().map(round) },
    },
    null,
    2,
  )}\n`,
);
