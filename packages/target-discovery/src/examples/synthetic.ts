// Seeded synthetic RNA-seq studies: negative-binomial counts for real human genes with planted
// differential expression, for examples, end-to-end tests and benchmarks.
import { geneIndex } from '../druggability/table.js';

/** Small fast seeded PRNG (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function normal(r: () => number): number {
  let u = 0;
  while (u === 0) u = r();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * r());
}

/** Gamma(shape, 1) by Marsaglia & Tsang (2000). */
function gamma(r: () => number, shape: number): number {
  if (shape < 1) return gamma(r, shape + 1) * r() ** (1 / shape);
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let x: number;
    let v: number;
    do {
      x = normal(r);
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const u = r();
    if (u < 1 - 0.0331 * x ** 4 || Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) return d * v;
  }
}

/** Poisson: multiplication method for small means, normal approximation (rounded, >= 0) above 30. */
function poisson(r: () => number, lambda: number): number {
  if (lambda < 30) {
    const l = Math.exp(-lambda);
    let k = 0;
    let p = 1;
    do {
      k++;
      p *= r();
    } while (p > l);
    return k - 1;
  }
  return Math.max(0, Math.round(lambda + Math.sqrt(lambda) * normal(r)));
}

/** Negative binomial with mean mu and dispersion phi (variance mu + phi mu^2), as a gamma-Poisson mixture. */
export function negBinomial(r: () => number, mu: number, phi: number): number {
  return poisson(r, gamma(r, 1 / phi) * mu * phi);
}

export interface SyntheticStudyOptions {
  genes?: number;
  samplesPerGroup?: number;
  /** How many genes get a planted effect (half up, half down). */
  planted?: number;
  /** Planted |log2 fold change| range. */
  effect?: [number, number];
  seed?: number;
  dispersion?: number;
}

export interface SyntheticStudy {
  /** Counts CSV: gene symbol, then one column per sample. */
  countsCsv: string;
  metadataCsv: string;
  planted: Array<{ symbol: string; log2_fold_change: number }>;
  symbols: string[];
  sampleIds: string[];
}

/**
 * Protein-coding genes from the shipped table, baseline means log-normal (median ~ 150 reads), library
 * sizes varying +-30%, a two-level batch effect on 10% of genes, and planted effects on a set of genes
 * that includes well-known druggable targets.
 */
export function syntheticStudy(o: SyntheticStudyOptions = {}): SyntheticStudy {
  const nGenes = o.genes ?? 2000;
  const nPer = o.samplesPerGroup ?? 6;
  const nPlanted = o.planted ?? 40;
  const [eLo, eHi] = o.effect ?? [1.2, 3];
  const phi = o.dispersion ?? 0.08;
  const r = rng(o.seed ?? 20241121);
  const pool = geneIndex()
    .all()
    .filter((g) => g.gene_type === 'protein-coding' && g.uniprot);
  // A deterministic spread across the table, plus named targets so the example reads like a study.
  const named = [
    'EGFR',
    'ERBB2',
    'MET',
    'KDR',
    'PDGFRB',
    'DRD2',
    'ADORA2A',
    'ESR1',
    'AR',
    'SCN9A',
    'KCNH2',
    'MMP9',
    'CTSK',
    'PTPN11',
    'SLC2A1',
    'HDAC1',
    'PARP1',
    'CDK4',
    'BRAF',
    'JAK2',
  ];
  const chosen = new Set<string>(named.filter((s) => pool.some((g) => g.symbol === s)));
  const stride = Math.max(1, Math.floor(pool.length / nGenes));
  for (let i = 0; chosen.size < nGenes && i < pool.length; i += stride) chosen.add(pool[i]!.symbol);
  for (const g of pool) {
    if (chosen.size >= nGenes) break;
    chosen.add(g.symbol);
  }
  const symbols = [...chosen].slice(0, nGenes);
  const plantedIdx = new Set<number>();
  for (let i = 0; i < Math.min(nPlanted, named.length) && i < symbols.length; i++) plantedIdx.add(i);
  while (plantedIdx.size < Math.min(nPlanted, symbols.length)) plantedIdx.add(Math.floor(r() * symbols.length));
  const n = 2 * nPer;
  const sampleIds = Array.from(
    { length: n },
    (_, j) => `${j < nPer ? 'CTL' : 'TUM'}_${String((j % nPer) + 1).padStart(2, '0')}`,
  );
  const isCase = (j: number) => j >= nPer;
  const batch = (j: number) => (j % 2 === 0 ? 'b1' : 'b2');
  const libFactor = Array.from({ length: n }, () => 0.7 + 0.6 * r());
  const planted: SyntheticStudy['planted'] = [];
  const lines = [['gene', ...sampleIds].join(',')];
  symbols.forEach((s, g) => {
    const base = Math.exp(Math.log(150) + 1.6 * normal(r));
    let lfc = 0;
    if (plantedIdx.has(g)) {
      lfc = (eLo + (eHi - eLo) * r()) * (planted.length % 2 === 0 ? 1 : -1);
      planted.push({ symbol: s, log2_fold_change: lfc });
    }
    const batchLfc = r() < 0.1 ? 0.8 * normal(r) : 0;
    const row = libFactor.map((lib, j) => {
      const mu = base * lib * 2 ** ((isCase(j) ? lfc : 0) + (batch(j) === 'b2' ? batchLfc : 0));
      return negBinomial(r, mu, phi);
    });
    lines.push(`${s},${row.join(',')}`);
  });
  const meta = [
    'sample_id,condition,batch',
    ...sampleIds.map((id, j) => `${id},${isCase(j) ? 'tumor' : 'normal'},${batch(j)}`),
  ];
  return { countsCsv: `${lines.join('\n')}\n`, metadataCsv: `${meta.join('\n')}\n`, planted, symbols, sampleIds };
}

/** Counts only, as a row-major Float64Array (benchmarks: no CSV round trip). */
export function syntheticCounts(
  nGenes: number,
  nSamples: number,
  seed = 7,
  plantedFraction = 0.05,
): { data: Float64Array; isCase: Uint8Array } {
  const r = rng(seed);
  const data = new Float64Array(nGenes * nSamples);
  const isCase = new Uint8Array(nSamples);
  for (let j = 0; j < nSamples; j++) isCase[j] = j >= nSamples / 2 ? 1 : 0;
  const lib = Array.from({ length: nSamples }, () => 0.7 + 0.6 * r());
  for (let g = 0; g < nGenes; g++) {
    const base = Math.exp(Math.log(40) + 2 * normal(r));
    const lfc = r() < plantedFraction ? (r() < 0.5 ? -1 : 1) * (1 + r()) : 0;
    for (let j = 0; j < nSamples; j++) {
      const mu = base * lib[j]! * (isCase[j] ? 2 ** lfc : 1);
      data[g * nSamples + j] = negBinomial(r, mu, 0.1);
    }
  }
  return { data, isCase };
}
