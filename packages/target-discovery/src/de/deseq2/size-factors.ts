// DESeq2's median-of-ratios size factors (Anders & Huber 2010; estimateSizeFactorsForMatrix, type "ratio").
import { TargetDiscoveryInputError } from '../../errors.js';
import type { Matrix } from '../../stats/matrix.js';
import { median } from '../../stats/summary.js';

export function sizeFactorsMedianOfRatios(counts: Matrix): Float64Array {
  const { nrow: G, ncol: n, data } = counts;
  const logGeo = new Float64Array(G);
  let anyFinite = false;
  for (let g = 0; g < G; g++) {
    let s = 0;
    for (let j = 0; j < n; j++) s += Math.log(data[g * n + j]!);
    logGeo[g] = s / n;
    if (Number.isFinite(logGeo[g])) anyFinite = true;
  }
  if (!anyFinite)
    throw new TargetDiscoveryInputError(
      'too_few_features',
      'expression_matrix',
      'every gene has a zero count in at least one sample, so DESeq2 cannot compute median-of-ratios size factors',
    );
  const sf = new Float64Array(n);
  const ratios: number[] = [];
  for (let j = 0; j < n; j++) {
    ratios.length = 0;
    for (let g = 0; g < G; g++) {
      const c = data[g * n + j]!;
      if (Number.isFinite(logGeo[g]) && c > 0) ratios.push(Math.log(c) - logGeo[g]!);
    }
    sf[j] = Math.exp(median(ratios));
  }
  return sf;
}
