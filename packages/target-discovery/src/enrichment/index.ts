// Gene-set enrichment of a discovery run, as limma computes it (issue 42): goana (GO over-representation of the up
// and down genes), camera (competitive, inter-gene correlation) and fry (self-contained rotation test), over the GO
// collections shipped with the package and user sets in GMT. One row per method and set; BH within each method and
// collection; set sizes count the tested rows (camera, fry) or tested genes (goana) in a set.
import { geneIndex, type GeneIndex } from '../druggability/table.js';
import { TargetDiscoveryInputError } from '../errors.js';
import { adjustBH } from '../stats/bh.js';
import { subsetRows } from '../stats/matrix.js';
import { camera } from './camera.js';
import type { FitContext } from './context.js';
import { rowEffects } from './effects.js';
import { fry } from './fry.js';
import { GO_COLLECTIONS, type GeneSet, type GoCollection, goGeneSets, parseGmt } from './gene-sets.js';
import { goanaGenes, goanaSet } from './goana.js';
import { setRows } from './set-rows.js';

export const ENRICHMENT_METHODS = ['goana', 'camera', 'fry'] as const;
export type EnrichmentMethod = (typeof ENRICHMENT_METHODS)[number];

export interface EnrichmentOptions {
  /** Default all three. */
  methods?: EnrichmentMethod[];
  /** GO collections: default all three (GO:BP, GO:CC, GO:MF), or none when `gene_sets` is given. */
  collections?: GoCollection[];
  /** User gene sets, GMT text (the job API decodes the base64 first); reported under collection 'GMT'. */
  gene_sets?: string;
  /** Smallest and largest set tested, counted in tested rows (camera, fry) or tested genes (goana). 15 and 500. */
  min_size?: number;
  max_size?: number;
  /** camera's inter-gene correlation: limma's default 0.01; null estimates it per set (camera's inter.gene.cor = NA). */
  inter_gene_cor?: number | null;
  /** goana's cut on the BH-adjusted p-values of the rows with an Entrez id. Default 0.05 (limma's). */
  fdr?: number;
  /** Leading genes listed per set. Default 10. */
  leading_genes?: number;
}

export interface EnrichmentRow {
  method: EnrichmentMethod;
  collection: string;
  set_id: string;
  set_name: string;
  size: number;
  direction: 'up' | 'down';
  p_value: number;
  fdr: number;
  /** goana: the set's up and down genes and their one-sided hypergeometric p-values. */
  up?: number;
  down?: number;
  p_up?: number;
  p_down?: number;
  /** fry: the mixed (non-directional) p-value and its BH FDR. */
  p_value_mixed?: number;
  fdr_mixed?: number;
  /** camera with an estimated inter-gene correlation: the set's estimate. */
  correlation?: number;
  /** Symbols (feature ids where no symbol) of the set's genes moving in its direction, smallest p first. */
  leading_genes: string[];
}

export interface EnrichmentResult {
  rows: EnrichmentRow[];
  warnings: string[];
  summary: {
    methods: EnrichmentMethod[];
    collections: string[];
    min_size: number;
    max_size: number;
    inter_gene_cor: number | null;
    fdr: number;
    /** Tested rows, and those with an Entrez id (goana's universe before deduplication). */
    rows_tested: number;
    rows_with_gene: number;
    goana?: { universe: number; up: number; down: number };
    /** Sets tested per collection (within the size limits). */
    sets_tested: Record<string, number>;
    gene_sets_source: string;
  };
}

export const ENRICHMENT_DEFAULTS = {
  methods: [...ENRICHMENT_METHODS],
  collections: [...GO_COLLECTIONS],
  min_size: 15,
  max_size: 500,
  inter_gene_cor: 0.01,
  fdr: 0.05,
  leading_genes: 10,
};

const FIELD = 'options.enrichment';

function normalise(o: EnrichmentOptions) {
  const bad = (field: string, message: string) =>
    new TargetDiscoveryInputError('bad_option', `${FIELD}.${field}`, message);
  const methods = o.methods ?? ENRICHMENT_DEFAULTS.methods;
  if (!Array.isArray(methods) || methods.length === 0 || methods.some((m) => !ENRICHMENT_METHODS.includes(m)))
    throw bad('methods', `methods must be a non-empty list of ${ENRICHMENT_METHODS.join(', ')}`);
  const collections = o.collections ?? (o.gene_sets === undefined ? ENRICHMENT_DEFAULTS.collections : []);
  if (!Array.isArray(collections) || collections.some((c) => !GO_COLLECTIONS.includes(c)))
    throw bad('collections', `collections must be a list of ${GO_COLLECTIONS.join(', ')}`);
  if (collections.length === 0 && o.gene_sets === undefined)
    throw bad('collections', 'no gene set to test: give collections, gene_sets or both');
  const minSize = o.min_size ?? ENRICHMENT_DEFAULTS.min_size;
  const maxSize = o.max_size ?? ENRICHMENT_DEFAULTS.max_size;
  if (!(Number.isInteger(minSize) && minSize >= 1))
    throw bad('min_size', `min_size must be an integer >= 1 (got ${minSize})`);
  if (!(Number.isInteger(maxSize) && maxSize >= minSize))
    throw bad('max_size', `max_size must be an integer >= min_size (${minSize}) (got ${maxSize})`);
  const cor = o.inter_gene_cor === undefined ? ENRICHMENT_DEFAULTS.inter_gene_cor : o.inter_gene_cor;
  if (cor !== null && !(Number.isFinite(cor) && cor > -1 && cor < 1))
    throw bad('inter_gene_cor', `inter_gene_cor must be in (-1, 1), or null to estimate it (got ${cor})`);
  const fdr = o.fdr ?? ENRICHMENT_DEFAULTS.fdr;
  if (!(Number.isFinite(fdr) && fdr > 0 && fdr <= 1)) throw bad('fdr', `fdr must be in (0, 1] (got ${fdr})`);
  const leading = o.leading_genes ?? ENRICHMENT_DEFAULTS.leading_genes;
  if (!(Number.isInteger(leading) && leading >= 0))
    throw bad('leading_genes', `leading_genes must be an integer >= 0 (got ${leading})`);
  return {
    methods: [...new Set(methods)],
    collections: [...new Set(collections)],
    minSize,
    maxSize,
    cor,
    fdr,
    leading,
  };
}

/**
 * Enrichment of a discovery run (`fitContextOf(run.de, run.features.geneOf)` from `runDiscovery`). Bad options or
 * gene sets throw TargetDiscoveryInputError (400 in the job API); what cannot be computed is said in `warnings`.
 */
export function enrich(
  ctx: FitContext,
  options: EnrichmentOptions = {},
  genes: GeneIndex = geneIndex(),
): EnrichmentResult {
  const o = normalise(options);
  const warnings: string[] = [];
  const collections: { name: string; sets: readonly GeneSet[] }[] = [];
  let source = '';
  if (o.collections.length > 0) {
    const go = goGeneSets();
    source = go.source;
    for (const c of o.collections) collections.push({ name: c, sets: go.byCollection.get(c) ?? [] });
  }
  if (options.gene_sets !== undefined) {
    const gmt = parseGmt(options.gene_sets, genes, `${FIELD}.gene_sets`);
    if (gmt.unresolved > 0)
      warnings.push(
        `gene_sets: ${gmt.unresolved} of ${gmt.identifiers} gene identifiers resolve to no human gene and were left out (e.g. ${gmt.unresolvedExamples.join(', ')})`,
      );
    collections.push({ name: 'GMT', sets: gmt.sets });
    source = source ? `${source}; user GMT` : 'user GMT';
  }

  const G = ctx.featureIds.length;
  const entrez = ctx.genes.map((g) => (g ? Number(g.entrez_id) : null));
  // several rows of one gene (collapse: none)? The ids sorted as integers, then neighbours compared
  const ids = Int32Array.from(entrez.filter((e) => e !== null)).sort();
  const rowsWithGene = ids.length;
  let duplicated = false;
  for (let k = 1; k < ids.length && !duplicated; k++) duplicated = ids[k] === ids[k - 1];
  if (rowsWithGene === 0)
    warnings.push(
      'no tested feature resolved to a human gene with an Entrez id, so no gene set can be tested: name features by gene (symbol, Entrez, Ensembl) or give options.feature_annotation',
    );

  // camera and fry refit every row: complete rows of a limma fit only
  let fx: ReturnType<typeof rowEffects> | undefined;
  let rowMap: Int32Array | undefined; // tested row -> row of fx (-1: left out)
  const wantsFit = o.methods.includes('camera') || o.methods.includes('fry');
  if (wantsFit && rowsWithGene > 0) {
    if (!ctx.fit) {
      warnings.push(
        `camera and fry need a limma linear model; the ${ctx.pipeline} pipeline has none, so they did not run${o.methods.includes('goana') ? ' (goana did)' : ''} (use options.method "voom" for counts)`,
      );
    } else {
      const { values, weights, design, coefficient } = ctx.fit;
      if (design.n - design.p < 1)
        throw new TargetDiscoveryInputError(
          'too_few_samples',
          FIELD,
          'camera and fry need residual degrees of freedom: the design has as many coefficients as samples',
        );
      const complete = new Uint8Array(G);
      let nComplete = 0;
      rowMap = new Int32Array(G).fill(-1);
      for (let g = 0; g < G; g++) {
        let ok = 1;
        for (let j = 0; j < values.ncol; j++) if (Number.isNaN(values.data[g * values.ncol + j])) ok = 0;
        complete[g] = ok;
        if (ok) rowMap[g] = nComplete++;
      }
      if (nComplete < G)
        warnings.push(
          `camera and fry: ${G - nComplete} row(s) with missing values left out (limma's camera and fry need complete rows)`,
        );
      // fry and camera's estimated correlation read every effect; camera alone needs two numbers a row
      const keepEffects = o.methods.includes('fry') || o.cor === null;
      fx =
        nComplete === G
          ? rowEffects(values, design, coefficient, weights, keepEffects)
          : rowEffects(
              subsetRows(values, complete),
              design,
              coefficient,
              weights ? subsetRows(weights, complete) : undefined,
              keepEffects,
            );
    }
  }
  const goGenes = o.methods.includes('goana') ? goanaGenes(entrez, ctx.pValue, ctx.logFC, o.fdr) : undefined;
  if (goGenes && goGenes.up.size + goGenes.down.size === 0 && rowsWithGene > 0)
    warnings.push(
      `goana: no gene has a BH-adjusted p-value below ${o.fdr}, so there is nothing to test (as limma's goana)`,
    );

  // a row's label once, however many sets list it among their leading genes
  const labels: (string | undefined)[] = new Array(G);
  const label = (i: number) => {
    let l = labels[i];
    if (l === undefined) {
      l = ctx.genes[i]?.symbol ?? ctx.featureIds[i]!;
      labels[i] = l;
    }
    return l;
  };
  // leading genes: the set's rows moving its way, smallest p first (ties in row order; NaN last), the smallest
  // `o.leading` kept by insertion into a short sorted buffer: a set's rows are read once, nothing is sorted. One key
  // a row and direction: its p (NaN as 2, after every p), or Infinity when it moves the other way (never kept).
  const keyUp = new Float64Array(G);
  const keyDown = new Float64Array(G);
  for (let i = 0; i < G; i++) {
    const p = Number.isNaN(ctx.pValue[i]!) ? 2 : ctx.pValue[i]!;
    const fc = ctx.logFC[i]!;
    keyUp[i] = fc > 0 ? p : Infinity;
    keyDown[i] = fc < 0 ? p : Infinity;
  }
  const top = new Int32Array(o.leading);
  const leading = (rows: Int32Array, dir: 'up' | 'down', keep?: (i: number) => boolean) => {
    const cap = o.leading;
    if (cap === 0) return [];
    const key = dir === 'up' ? keyUp : keyDown;
    let k = 0;
    let worst = Infinity; // the last kept key once the buffer is full: only a smaller one (or a tie earlier) gets in
    for (let r = 0; r < rows.length; r++) {
      const i = rows[r]!;
      const ki = key[i]!;
      if (!(ki <= worst) || ki === Infinity || (keep !== undefined && !keep(i))) continue;
      if (ki === worst && i > top[k - 1]!) continue;
      let j = k < cap ? k++ : k - 1;
      for (; j > 0; j--) {
        const prev = top[j - 1]!;
        const kp = key[prev]!;
        if (!(ki < kp || (ki === kp && i < prev))) break;
        top[j] = prev;
      }
      top[j] = i;
      if (k === cap) worst = key[top[k - 1]!]!;
    }
    const out: string[] = new Array(k);
    for (let j = 0; j < k; j++) out[j] = label(top[j]!);
    return out;
  };

  const rows: EnrichmentRow[] = [];
  const setsTested: Record<string, number> = {};
  for (const { name: collection, sets } of collections) {
    // each set's tested rows (camera, fry: every row of its genes, as ids2indices) and size filter
    const members = setRows(sets, entrez, o.minSize, o.maxSize);
    let tested = 0;
    if (goGenes && goGenes.up.size + goGenes.down.size > 0) {
      const out: EnrichmentRow[] = [];
      for (const { set, rows: r } of members) {
        const g = goanaSet(goGenes, duplicated ? new Set(r.map((i) => entrez[i]!)) : r.map((i) => entrez[i]!));
        if (g.size < o.minSize || g.size > o.maxSize) continue;
        const direction = g.pDown < g.pUp ? 'down' : 'up';
        const de = direction === 'up' ? goGenes.up : goGenes.down;
        out.push({
          method: 'goana',
          collection,
          set_id: set.id,
          set_name: set.name,
          size: g.size,
          direction,
          p_value: Math.min(g.pUp, g.pDown),
          fdr: NaN,
          up: g.up,
          down: g.down,
          p_up: g.pUp,
          p_down: g.pDown,
          leading_genes: leading(r, direction, (i) => de.has(entrez[i]!)),
        });
      }
      const adj = adjustBH(out.map((x) => x.p_value));
      out.forEach((x, k) => {
        x.fdr = adj[k]!;
      });
      rows.push(...out);
      tested = Math.max(tested, out.length);
    }
    if (fx && rowMap) {
      const map = rowMap;
      const inRange = members
        .map(({ set, rows: r }) => ({
          set,
          rows: r,
          fit: fx!.sign.length === G ? r : r.map((i) => map[i]!).filter((i) => i >= 0), // rows of the complete-row fit
        }))
        .filter((m) => m.fit.length >= o.minSize && m.fit.length <= o.maxSize);
      tested = Math.max(tested, inRange.length);
      const fitSets = inRange.map((m) => m.fit);
      if (o.methods.includes('camera') && inRange.length > 0) {
        const res = camera(fx, fitSets, o.cor);
        const adj = adjustBH(res.map((x) => x.pValue));
        res.forEach((x, k) => {
          const m = inRange[k]!;
          rows.push({
            method: 'camera',
            collection,
            set_id: m.set.id,
            set_name: m.set.name,
            size: x.size,
            direction: x.direction,
            p_value: x.pValue,
            fdr: adj[k]!,
            ...(o.cor === null ? { correlation: x.correlation } : {}),
            leading_genes: leading(m.rows, x.direction),
          });
        });
      }
      if (o.methods.includes('fry') && inRange.length > 0) {
        const res = fry(fx, fitSets);
        const adj = adjustBH(res.map((x) => x.pValue));
        const adjMixed = adjustBH(res.map((x) => x.pValueMixed));
        res.forEach((x, k) => {
          const m = inRange[k]!;
          rows.push({
            method: 'fry',
            collection,
            set_id: m.set.id,
            set_name: m.set.name,
            size: x.size,
            direction: x.direction,
            p_value: x.pValue,
            fdr: adj[k]!,
            p_value_mixed: x.pValueMixed,
            fdr_mixed: adjMixed[k]!,
            leading_genes: leading(m.rows, x.direction),
          });
        });
      }
    }
    setsTested[collection] = tested;
    if (tested === 0 && rowsWithGene > 0)
      warnings.push(
        `${collection}: no set has between ${o.minSize} and ${o.maxSize} tested genes (min_size, max_size), so none was tested`,
      );
  }
  return {
    rows,
    warnings,
    summary: {
      methods: o.methods,
      collections: collections.map((c) => c.name),
      min_size: o.minSize,
      max_size: o.maxSize,
      inter_gene_cor: o.cor,
      fdr: o.fdr,
      rows_tested: G,
      rows_with_gene: rowsWithGene,
      ...(goGenes ? { goana: { universe: goGenes.universe.size, up: goGenes.up.size, down: goGenes.down.size } } : {}),
      sets_tested: setsTested,
      gene_sets_source: source,
    },
  };
}

export { fitContextOf, type FitContext } from './context.js';
export {
  GO_COLLECTIONS,
  GMT_COLLECTION,
  goGeneSets,
  parseGmt,
  parseGoSets,
  type GeneSet,
  type GoCollection,
} from './gene-sets.js';
