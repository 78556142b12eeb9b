// limma's camera (Wu & Smyth 2012): a competitive test of each set's mean moderated statistic against the other
// rows', its variance inflated by the inter-gene correlation (fixed, limma's default 0.01, or estimated from the
// set's residuals). Formulas as limma 3.54's camera.default with use.ranks = FALSE, allow.neg.cor = FALSE,
// trend.var = FALSE.
import { squeezeVar } from '../stats/ebayes.js';
import { pt } from '../stats/special.js';
import { zscoreTHill } from './distributions.js';
import type { RowEffects } from './effects.js';

export interface CameraResult {
  size: number;
  /** The set's inter-gene correlation: the fixed value, or the estimate (NaN for a set of one row). */
  correlation: number;
  direction: 'up' | 'down';
  pValue: number;
}

/**
 * camera on every set (row indices into the effects' rows). `interGeneCor` null estimates the correlation per set
 * (camera's inter.gene.cor = NA), with the t distribution's df then min(residual df, G - 2).
 */
export function camera(fx: RowEffects, sets: readonly Int32Array[], interGeneCor: number | null): CameraResult[] {
  const { effects, tested, rss, sign, n, p } = fx;
  const G = sign.length;
  if (G < 3) throw new Error('camera: too few rows (need at least 3)');
  const dfResidual = n - p;
  const fixed = interGeneCor !== null;
  const dfCamera = fixed ? G - 2 : Math.min(dfResidual, G - 2);
  // residual variances, standardised residual effects and moderated t
  const sigma2 = new Float64Array(G);
  const unscaledT = new Float64Array(G);
  for (let g = 0; g < G; g++) {
    sigma2[g] = rss[g]! / dfResidual;
    unscaledT[g] = sign[g]! < 0 ? -tested[g]! : tested[g]!;
  }
  if (!fixed && !effects) throw new Error('camera: estimating the inter-gene correlation needs the residual effects');
  const sv = squeezeVar(sigma2, new Float64Array(G).fill(dfResidual));
  const dfTotal = Math.min(dfResidual + sv.dfPrior, G * dfResidual);
  const stat = new Float64Array(G);
  let mean = 0;
  for (let g = 0; g < G; g++) {
    stat[g] = zscoreTHill(unscaledT[g]! / Math.sqrt(sv.varPost[g]!), dfTotal);
    mean += stat[g]!;
  }
  mean /= G;
  let ss = 0;
  for (let g = 0; g < G; g++) ss += (stat[g]! - mean) ** 2;
  const varStat = ss / (G - 1);
  const colMeans = new Float64Array(dfResidual);
  return sets.map((set) => {
    const m = set.length;
    const m2 = G - m;
    let vif: number;
    let correlation: number;
    if (fixed) {
      correlation = interGeneCor;
      vif = 1 + (m - 1) * correlation;
    } else if (m > 1) {
      colMeans.fill(0);
      for (const g of set) {
        const inv = 1 / Math.sqrt(Math.max(sigma2[g]!, 1e-8));
        for (let i = 0; i < dfResidual; i++) colMeans[i]! += effects![g * n + p + i]! * inv;
      }
      let s = 0;
      for (let i = 0; i < dfResidual; i++) s += (colMeans[i]! / m) ** 2;
      vif = (m * s) / dfResidual;
      correlation = (vif - 1) / (m - 1);
    } else {
      vif = 1;
      correlation = NaN;
    }
    vif = Math.max(1, vif);
    let inSet = 0;
    for (let k = 0; k < m; k++) inSet += stat[set[k]!]!;
    const delta = (G / m2) * (inSet / m - mean);
    const varPooled = ((G - 1) * varStat - (delta * delta * m * m2) / G) / (G - 2);
    const t = delta / Math.sqrt(varPooled * (vif / m + 1 / m2));
    // R's 2 * min(pt(t), pt(-t)): the smaller tail is the one on t's side, one t distribution call a set
    const tail = pt(-Math.abs(t), dfCamera);
    return { size: m, correlation, direction: t < 0 ? 'down' : 'up', pValue: 2 * tail };
  });
}
