// A discovery job's gene-set enrichment (options.enrichment, issue 42) as claims: each set significant by some method
// is `enriched_in` the case condition. One claim per set (the KB takes one fact once per source): the method with the
// smallest p states it, and the payload keeps every method's figures for the set.
import type { JobStatus } from '@evident/job-service';
import type { ClaimInput, KbDB, PredicateSpec } from '@evident/kb';
import { confidenceFromAdjustedP } from './confidence.js';
import { unexpectedResults } from './errors.js';
import { jobProvenance } from './provenance.js';
import { optionalNumber, Reader } from './shape.js';

/** Sets exported: BH FDR below this in at least one method (within its method and collection, as the job computed it). */
export const ENRICHMENT_FDR = 0.05;

/** GO collections name their terms' KB types; user sets (GMT) are pathways. */
const TYPE_OF: Record<string, string> = {
  'GO:BP': 'biological_process',
  'GO:CC': 'cellular_component',
  'GO:MF': 'molecular_function',
};

/** Not in the KB's `bio` vocabulary: registered by the export, in its own vocabulary's terms, when first written. */
export const ENRICHED_IN: PredicateSpec = {
  class: 'expression',
  subject_types: ['pathway', 'biological_process', 'cellular_component', 'molecular_function'],
  object_types: ['condition', 'disease', 'phenotype'],
  description: 'the gene set moves, as a set, in the condition against its control (gene-set enrichment of a study)',
};

interface MethodFigures {
  p_value: number;
  fdr: number;
  size: number;
  direction: string;
  p_value_mixed?: number;
  fdr_mixed?: number;
}

export interface EnrichmentPayload {
  set_id: string;
  set_name: string;
  collection: string;
  /** The method with the smallest p among those with FDR < 0.05, and its figures. */
  method: string;
  direction: string;
  p_value: number;
  fdr: number;
  size: number;
  /** Every method's figures for the set (significant or not). */
  methods: Record<string, MethodFigures>;
  leading_genes: string[];
  case_value: string;
  control_value: string;
}

export function enrichmentClaims(
  status: JobStatus,
  enrichment: unknown,
  condition: [string, string],
  caseValue: string,
  controlValue: string,
): ClaimInput[] {
  if (enrichment === undefined || enrichment === null) return [];
  const r = new Reader();
  const rows = r.array(r.object(enrichment, '/enrichment').rows, '/enrichment/rows');
  if (r.problems.length) throw unexpectedResults(status.job_id, r.problems);
  const bySet = new Map<string, { best?: EnrichmentPayload; methods: Record<string, MethodFigures> }>();
  for (const [i, raw] of rows.entries()) {
    const at = `/enrichment/rows/${i}`;
    const row = r.object(raw, at);
    const method = r.string(row.method, `${at}/method`);
    const collection = r.string(row.collection, `${at}/collection`);
    const setId = r.string(row.set_id, `${at}/set_id`);
    const figures: MethodFigures = {
      p_value: r.number(row.p_value, `${at}/p_value`),
      fdr: r.number(row.fdr, `${at}/fdr`),
      size: r.number(row.size, `${at}/size`),
      direction: r.string(row.direction, `${at}/direction`),
    };
    const mixed = optionalNumber(row.p_value_mixed);
    if (mixed !== undefined) {
      figures.p_value_mixed = mixed;
      figures.fdr_mixed = optionalNumber(row.fdr_mixed);
    }
    if (r.problems.length) throw unexpectedResults(status.job_id, r.problems);
    const key = `${collection}\t${setId}`;
    const entry = bySet.get(key) ?? { methods: {} };
    bySet.set(key, entry);
    entry.methods[method] = figures;
    if (!(figures.fdr < ENRICHMENT_FDR) || (entry.best && entry.best.p_value <= figures.p_value)) continue;
    entry.best = {
      set_id: setId,
      set_name: typeof row.set_name === 'string' ? row.set_name : setId,
      collection,
      method,
      direction: figures.direction,
      p_value: figures.p_value,
      fdr: figures.fdr,
      size: figures.size,
      methods: entry.methods,
      leading_genes: Array.isArray(row.leading_genes) ? row.leading_genes.filter((g) => typeof g === 'string') : [],
      case_value: caseValue,
      control_value: controlValue,
    };
  }
  const claims: ClaimInput[] = [];
  for (const { best } of bySet.values()) {
    if (!best) continue;
    // GO terms by their name (as a person writes them), user sets by theirs; the GO id stays in the payload.
    const subject: [string, string] = [
      best.collection in TYPE_OF ? best.set_name : best.set_id,
      TYPE_OF[best.collection] ?? 'pathway',
    ];
    claims.push({
      subject,
      predicate: ['enriched_in', 'expression'],
      object: condition,
      provenance: jobProvenance(status, 'gene_set_enrichment', best.method),
      confidence: confidenceFromAdjustedP(best.fdr),
      payload: best,
    });
  }
  // Most significant first, as targets are listed.
  return claims.sort((a, b) => (a.payload as EnrichmentPayload).p_value - (b.payload as EnrichmentPayload).p_value);
}

/** Registers enriched_in where the base lacks it; returns ['enriched_in'] when it did. */
export async function ensureEnrichedIn(db: KbDB): Promise<string[]> {
  const have = (await db.schema()).registered.predicates as Record<string, unknown>;
  if (have.enriched_in !== undefined) return [];
  await db.registerPredicate('enriched_in', ENRICHED_IN);
  return ['enriched_in'];
}
