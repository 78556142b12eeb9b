// Leading genes of a set: its rows moving the set's way, smallest p first (ties in row order; NaN last), the
// smallest `cap` kept by insertion into a short sorted buffer: a set's rows are read once, nothing is sorted. One key
// a row and direction: its p (NaN as 2, after every p), or Infinity when it moves the other way (never kept).
import type { FitContext } from './context.js';

export type LeadingGenes = (rows: Int32Array, dir: 'up' | 'down', keep?: (i: number) => boolean) => string[];

/** The leading-genes picker of a run: `cap` genes a set, labelled by symbol (the feature id where none). */
export function leadingGenes(ctx: FitContext, cap: number): LeadingGenes {
  const G = ctx.featureIds.length;
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
  const keyUp = new Float64Array(G);
  const keyDown = new Float64Array(G);
  for (let i = 0; i < G; i++) {
    const p = Number.isNaN(ctx.pValue[i]!) ? 2 : ctx.pValue[i]!;
    const fc = ctx.logFC[i]!;
    keyUp[i] = fc > 0 ? p : Infinity;
    keyDown[i] = fc < 0 ? p : Infinity;
  }
  const top = new Int32Array(cap);
  return (rows, dir, keep) => {
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
}
