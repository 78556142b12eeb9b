// What enrichment needs from a discovery run: the tested rows, their genes and test results, and (for the limma
// pipelines) the values, weights and design of the fit, which camera and fry refit row by row.
import type { GeneRecord } from '../druggability/table.js';
import type { DeTable } from '../pipeline/differential-expression.js';
import type { FitData } from '../pipeline/differential-expression.js';

export interface FitContext {
  /** The tested rows, in the fit's order. */
  featureIds: readonly string[];
  /** Each row's gene (Entrez id and symbol), undefined for a row that resolved to none. */
  genes: readonly (Pick<GeneRecord, 'entrez_id' | 'symbol'> | undefined)[];
  logFC: ArrayLike<number>;
  /** The moderated test's p-values (goana cuts them at FDR < 0.05). */
  pValue: ArrayLike<number>;
  /** The linear model's inputs: present for limma, limma-voom and limma-trend, absent for DESeq2 and edgeR-QL. */
  fit?: FitData;
  /** The pipeline that produced the statistics, for messages. */
  pipeline: string;
}

/** The context of a discovery run: the DE table and the feature-to-gene map of annotateDataset. */
export function fitContextOf(de: DeTable, geneOf: ReadonlyMap<string, GeneRecord>): FitContext {
  return {
    featureIds: de.featureIds,
    genes: de.featureIds.map((id) => geneOf.get(id)),
    logFC: de.logFC,
    pValue: de.pValue,
    ...(de.fitData ? { fit: de.fitData } : {}),
    pipeline: de.report.name,
  };
}
