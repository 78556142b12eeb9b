// Run-time estimate for a td job. Calibrated with packages/target-discovery's benchmark (npm run bench):
// time grows with cells (features x samples); the counts pipeline costs more per cell (voom fits twice,
// weighted per-feature QR). Figures are single-core seconds on the reference machine.
import type { DataType, ResolvedMethod } from '@evident/target-discovery';

/** Seconds per million cells: parsing plus the pipeline. */
const PER_MCELL: Record<DataType, number> = { log_expression: 0.25, non_log_expression: 0.3, counts: 0.45 };
const FIXED = 0.6; // loading the gene table, ranking, plots
/** The count-model fits (per-gene line searches, IRLS, likelihood grids): 10,000 x 12 in ~2.7 s (DESeq2) and ~4 s (edgeR-QL). */
const COUNT_MODEL_PER_MCELL: Partial<Record<ResolvedMethod, number>> = { deseq2: 25, 'edger-ql': 35 };

/**
 * Gene-set enrichment (issue 42), from target-discovery's bench:enrich at 2,000 x 20 over GO BP: loading the GO sets,
 * then per method a few seconds; camera and fry refit every set's rows, so they grow with the samples.
 */
const ENRICH_FIXED = 1;
const ENRICH_PER_METHOD: Record<string, (samples: number) => number> = {
  goana: () => 1.3,
  camera: (n) => 1.2 * Math.max(1, n / 20),
  fry: (n) => 1.8 * Math.max(1, n / 20),
};

export function estimateTdSeconds(
  shape: { features: number; samples: number; data_type: DataType; method?: ResolvedMethod },
  enrichmentMethods?: readonly string[],
): [number, number] {
  const mcells = (shape.features * shape.samples) / 1e6;
  const perCell = (shape.method && COUNT_MODEL_PER_MCELL[shape.method]) ?? PER_MCELL[shape.data_type];
  let s = FIXED + perCell * mcells;
  if (enrichmentMethods)
    s += ENRICH_FIXED + enrichmentMethods.reduce((t, m) => t + (ENRICH_PER_METHOD[m]?.(shape.samples) ?? 0), 0);
  return [Math.max(0.2, s * 0.6), s * 2 + 1];
}
