// Gene-set enrichment of a discovery run, as limma computes it (issue 42): goana (GO over-representation of the up
// and down genes), camera (competitive, inter-gene correlation) and fry (self-contained rotation test), over the GO
// collections shipped with the package and user sets in GMT. One row per method and set; BH within each method and
// collection; set sizes count the tested rows (camera, fry) or tested genes (goana) in a set.
import { geneIndex, type GeneIndex } from '../druggability/table.js';
import { TargetDiscoveryInputError } from '../errors.js';
import { adjustBH } from '../stats/bh.js';
import { camera } from './camera.js';
import type { FitContext } from './context.js';
import { type FitEffects, fitEffects } from './fit-effects.js';
import { fry } from './fry.js';
import { GO_COLLECTIONS, type GeneSet, type GoCollection, goGeneSets, parseGmt } from './gene-sets.js';
import { type GoanaGenes, goanaGenes, goanaSet } from './goana.js';
import { type LeadingGenes, leadingGenes } from './leading.js';
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

type Options = ReturnType<typeof normalise>;
type Collection = { name: string; sets: readonly GeneSet[] };

/** The collections to test (GO as asked, then the user's GMT) and where they come from. */
function loadCollections(o: Options, gmtText: string | undefined, genes: GeneIndex, warnings: string[]) {
  const collections: Collection[] = [];
  let source = '';
  if (o.collections.length > 0) {
    const go = goGeneSets();
    source = go.source;
    for (const c of o.collections) collections.push({ name: c, sets: go.byCollection.get(c) ?? [] });
  }
  if (gmtText !== undefined) {
    const gmt = parseGmt(gmtText, genes, `${FIELD}.gene_sets`);
    if (gmt.unresolved > 0)
      warnings.push(
        `gene_sets: ${gmt.unresolved} of ${gmt.identifiers} gene identifiers resolve to no human gene and were left out (e.g. ${gmt.unresolvedExamples.join(', ')})`,
      );
    collections.push({ name: 'GMT', sets: gmt.sets });
    source = source ? `${source}; user GMT` : 'user GMT';
  }
  return { collections, source };
}

/** goana's rows of one collection, BH within it. */
function goanaRows(
  collection: string,
  members: ReturnType<typeof setRows>,
  goGenes: GoanaGenes,
  entrez: readonly (number | null)[],
  duplicated: boolean,
  o: Options,
  leading: LeadingGenes,
): EnrichmentRow[] {
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
  return out;
}

/** camera's and fry's rows of one collection (BH within each), and how many sets they tested. */
function fitRows(
  collection: string,
  members: ReturnType<typeof setRows>,
  { fx, rowMap }: FitEffects,
  o: Options,
  leading: LeadingGenes,
): { rows: EnrichmentRow[]; tested: number } {
  const G = rowMap.length;
  const inRange = members
    .map(({ set, rows: r }) => ({
      set,
      rows: r,
      fit: fx.sign.length === G ? r : r.map((i) => rowMap[i]!).filter((i) => i >= 0), // rows of the complete-row fit
    }))
    .filter((m) => m.fit.length >= o.minSize && m.fit.length <= o.maxSize);
  const rows: EnrichmentRow[] = [];
  if (inRange.length === 0) return { rows, tested: 0 };
  const fitSets = inRange.map((m) => m.fit);
  const base = (k: number) => ({ collection, set_id: inRange[k]!.set.id, set_name: inRange[k]!.set.name });
  // Deliberate likeness: one block per method (camera, fry, …), each adding the fields its rows carry.
  if (o.methods.includes('camera')) {
    const res = camera(fx, fitSets, o.cor);
    const adj = adjustBH(res.map((x) => x.pValue));
    res.forEach((x, k) => {
      rows.push({
        method: 'camera',
        ...base(k),
        size: x.size,
        direction: x.direction,
        p_value: x.pValue,
        fdr: adj[k]!,
        ...(o.cor === null ? { correlation: x.correlation } : {}),
        leading_genes: leading(inRange[k]!.rows, x.direction),
      });
    });
  }
  // Deliberate likeness: as camera's block above; fry's rows add the mixed p-value.
  if (o.methods.includes('fry')) {
    const res = fry(fx, fitSets);
    const adj = adjustBH(res.map((x) => x.pValue));
    const adjMixed = adjustBH(res.map((x) => x.pValueMixed));
    res.forEach((x, k) => {
      rows.push({
        method: 'fry',
        ...base(k),
        size: x.size,
        direction: x.direction,
        p_value: x.pValue,
        fdr: adj[k]!,
        p_value_mixed: x.pValueMixed,
        fdr_mixed: adjMixed[k]!,
        leading_genes: leading(inRange[k]!.rows, x.direction),
      });
    });
  }
  return { rows, tested: inRange.length };
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
  const { collections, source } = loadCollections(o, options.gene_sets, genes, warnings);

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

  // camera and fry refit every row: complete rows of a limma fit only; fry and camera's estimated correlation read
  // every effect, camera alone needs two numbers a row
  const wantsFit = o.methods.includes('camera') || o.methods.includes('fry');
  const fit =
    wantsFit && rowsWithGene > 0
      ? fitEffects(ctx, o.methods.includes('fry') || o.cor === null, o.methods.includes('goana'), FIELD, warnings)
      : undefined;
  const goGenes = o.methods.includes('goana') ? goanaGenes(entrez, ctx.pValue, ctx.logFC, o.fdr) : undefined;
  if (goGenes && goGenes.up.size + goGenes.down.size === 0 && rowsWithGene > 0)
    warnings.push(
      `goana: no gene has a BH-adjusted p-value below ${o.fdr}, so there is nothing to test (as limma's goana)`,
    );
  const leading = leadingGenes(ctx, o.leading);

  const rows: EnrichmentRow[] = [];
  const setsTested: Record<string, number> = {};
  for (const { name: collection, sets } of collections) {
    // each set's tested rows (camera, fry: every row of its genes, as ids2indices) and size filter
    const members = setRows(sets, entrez, o.minSize, o.maxSize);
    let tested = 0;
    if (goGenes && goGenes.up.size + goGenes.down.size > 0) {
      const out = goanaRows(collection, members, goGenes, entrez, duplicated, o, leading);
      rows.push(...out);
      tested = out.length;
    }
    if (fit) {
      const out = fitRows(collection, members, fit, o, leading);
      rows.push(...out.rows);
      tested = Math.max(tested, out.tested);
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
