// limma's goana on a fit (goana.MArrayLM then goana.default, limma 3.54): the rows with an Entrez id are cut at
// FDR < 0.05 (BH over those rows only) into up and down genes by the sign of the log fold change; the universe is
// every such gene (each once); a set's p-values are one-sided hypergeometric tails of its up and down counts.
import { adjustBH } from '../stats/bh.js';
import { hypergeometricUpper } from './distributions.js';

export interface GoanaGenes {
  /** The universe: every distinct Entrez id of the tested rows. */
  universe: ReadonlySet<number>;
  up: ReadonlySet<number>;
  down: ReadonlySet<number>;
}

/** goana.MArrayLM's up and down genes: `entrez[i]` null for a row with no Entrez id. */
export function goanaGenes(
  entrez: readonly (number | null)[],
  pValue: ArrayLike<number>,
  logFC: ArrayLike<number>,
  fdr = 0.05,
): GoanaGenes {
  const rows: number[] = [];
  entrez.forEach((e, i) => {
    if (e !== null) rows.push(i);
  });
  const adj = adjustBH(rows.map((i) => pValue[i]!));
  const universe = new Set<number>();
  const up = new Set<number>();
  const down = new Set<number>();
  rows.forEach((i, k) => {
    const e = entrez[i]!;
    universe.add(e);
    if (adj[k]! < fdr) {
      if (logFC[i]! > 0) up.add(e);
      else if (logFC[i]! < 0) down.add(e);
    }
  });
  return { universe, up, down };
}

export interface GoanaResult {
  /** Genes of the set in the universe (goana's N). */
  size: number;
  up: number;
  down: number;
  pUp: number;
  pDown: number;
}

/** goana's counts and p-values for one set, given its distinct tested genes' Entrez ids. */
export function goanaSet(genes: GoanaGenes, set: Iterable<number>): GoanaResult {
  let size = 0;
  let up = 0;
  let down = 0;
  for (const e of set) {
    if (!genes.universe.has(e)) continue;
    size++;
    if (genes.up.has(e)) up++;
    if (genes.down.has(e)) down++;
  }
  const N = genes.universe.size;
  const nUp = genes.up.size;
  const nDown = genes.down.size;
  return {
    size,
    up,
    down,
    pUp: hypergeometricUpper(up, nUp, N - nUp, size),
    pDown: hypergeometricUpper(down, nDown, N - nDown, size),
  };
}
