// Data-type detection: which published pipeline suits these values.
import { TargetDiscoveryInputError } from '../errors.js';
import type { Matrix } from '../stats/matrix.js';
import { quantileSorted } from '../stats/summary.js';

export type DataType = 'counts' | 'log_expression' | 'non_log_expression';

export interface DataTypeEvidence {
  data_type: DataType;
  min: number;
  max: number;
  all_integer: boolean;
  q25: number;
  q99: number;
}

/**
 * - non-negative integers reaching above 50: RNA-seq counts (voom);
 * - any negative value, or a range typical of log2 intensities: log-scale (limma);
 * - otherwise positive, unlogged values (TPM/FPKM): log2(x + 1) then limma-trend.
 * The unlogged rule is GEO2R's: 99th percentile above 100, or a range over 50 with a positive lower quartile.
 */
export function detectDataType(m: Matrix): DataTypeEvidence {
  const d = m.data;
  let min = Infinity;
  let max = -Infinity;
  let allInteger = true;
  let firstNegative = -1;
  const stride = Math.max(1, Math.floor(d.length / 200_000));
  const sample: number[] = [];
  for (let i = 0; i < d.length; i++) {
    const v = d[i]!;
    if (Number.isNaN(v)) continue;
    if (v < min) min = v;
    if (v > max) max = v;
    if (allInteger && v !== Math.floor(v)) allInteger = false;
    if (v < 0 && firstNegative < 0) firstNegative = i;
    if (i % stride === 0) sample.push(v);
  }
  if (sample.length === 0)
    throw new TargetDiscoveryInputError(
      'too_few_features',
      'expression_matrix',
      'the expression matrix has no numeric values for the selected samples',
    );
  const s = Float64Array.from(sample).sort();
  const q25 = quantileSorted(s, 0.25);
  const q99 = quantileSorted(s, 0.99);
  const base = { min, max, all_integer: allInteger, q25, q99 };
  if (allInteger && max > 50) {
    if (min < 0) {
      const g = Math.floor(firstNegative / m.ncol);
      throw new TargetDiscoveryInputError(
        'negative_counts',
        'expression_matrix',
        `the expression matrix looks like integer counts but has a negative value (${d[firstNegative]}) in feature row ${g + 1}; counts must be >= 0`,
      );
    }
    return { data_type: 'counts', ...base };
  }
  if (min < 0) return { data_type: 'log_expression', ...base };
  const notLog = q99 > 100 || (max - min > 50 && q25 > 0);
  return { data_type: notLog ? 'non_log_expression' : 'log_expression', ...base };
}
