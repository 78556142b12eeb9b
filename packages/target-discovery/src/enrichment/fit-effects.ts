// The row effects camera and fry start from, on the complete rows of a limma fit (limma's camera and fry need
// complete rows): what cannot be fitted is a warning, a design without residual df a refusal.
import { TargetDiscoveryInputError } from '../errors.js';
import { subsetRows } from '../stats/matrix.js';
import type { FitContext } from './context.js';
import { type RowEffects, rowEffects } from './effects.js';

export interface FitEffects {
  fx: RowEffects;
  /** Tested row -> row of fx (-1: left out for a missing value). */
  rowMap: Int32Array;
}

/**
 * The effects for camera and fry, or undefined (with a warning) when the run has no limma fit. `keepEffects`: the
 * rows x n effects (fry, camera's estimated correlation), not only each row's tested effect and residual sum of
 * squares.
 */
export function fitEffects(
  ctx: FitContext,
  keepEffects: boolean,
  goanaToo: boolean,
  field: string,
  warnings: string[],
): FitEffects | undefined {
  if (!ctx.fit) {
    warnings.push(
      `camera and fry need a limma linear model; the ${ctx.pipeline} pipeline has none, so they did not run${goanaToo ? ' (goana did)' : ''} (use options.method "voom" for counts)`,
    );
    return undefined;
  }
  const { values, weights, design, coefficient } = ctx.fit;
  if (design.n - design.p < 1)
    throw new TargetDiscoveryInputError(
      'too_few_samples',
      field,
      'camera and fry need residual degrees of freedom: the design has as many coefficients as samples',
    );
  const G = values.nrow;
  const complete = new Uint8Array(G);
  let nComplete = 0;
  const rowMap = new Int32Array(G).fill(-1);
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
  const fx =
    nComplete === G
      ? rowEffects(values, design, coefficient, weights, keepEffects)
      : rowEffects(
          subsetRows(values, complete),
          design,
          coefficient,
          weights ? subsetRows(weights, complete) : undefined,
          keepEffects,
        );
  return { fx, rowMap };
}
