// Each set's tested rows, as limma's ids2indices gives them: every row of the set's genes, in row order. A
// collection's genes are numbered once and its sets kept as runs of those numbers (cached with the collection, which
// the GO file's load caches in turn), so a job maps its rows to gene numbers once and then reads each set's members
// in sequence, with no per-row lookup of the sets a gene is in.
import type { GeneSet } from './gene-sets.js';

interface CollectionIndex {
  /** Entrez id -> the collection's gene number. */
  numberOf: Map<number, number>;
  /** Every set's members as gene numbers, set after set; set k's run from start[k] to start[k + 1]. */
  members: Int32Array;
  start: Int32Array;
}

const indexCache = new WeakMap<readonly GeneSet[], CollectionIndex>();

function collectionIndex(sets: readonly GeneSet[]): CollectionIndex {
  const cached = indexCache.get(sets);
  if (cached) return cached;
  const numberOf = new Map<number, number>();
  let total = 0;
  for (const set of sets) total += set.entrez.length;
  const members = new Int32Array(total);
  const start = new Int32Array(sets.length + 1);
  let at = 0;
  sets.forEach((set, k) => {
    start[k] = at;
    for (const e of set.entrez) {
      let v = numberOf.get(e);
      if (v === undefined) {
        v = numberOf.size;
        numberOf.set(e, v);
      }
      members[at++] = v;
    }
  });
  start[sets.length] = at;
  const index = { numberOf, members, start };
  indexCache.set(sets, index);
  return index;
}

/**
 * The sets with at least `minSize` tested rows and at most `maxSize` distinct tested genes (every set a method can
 * test: camera and fry count rows, goana genes), each with those rows (indices into `entrez`, ascending).
 */
export function setRows(
  sets: readonly GeneSet[],
  entrez: readonly (number | null)[],
  minSize: number,
  maxSize: number,
): { set: GeneSet; rows: Int32Array }[] {
  const { numberOf, members, start } = collectionIndex(sets);
  const U = numberOf.size;
  // the job's rows of each gene number, CSR (a gene may have several rows): rowStart[v] .. rowStart[v + 1]
  const G = entrez.length;
  const numberOfRow = new Int32Array(G).fill(-1);
  const rowStart = new Int32Array(U + 1);
  for (let i = 0; i < G; i++) {
    const e = entrez[i];
    const v = e === null || e === undefined ? undefined : numberOf.get(e);
    if (v !== undefined) {
      numberOfRow[i] = v;
      rowStart[v + 1]!++;
    }
  }
  for (let v = 0; v < U; v++) rowStart[v + 1]! += rowStart[v]!;
  const rowList = new Int32Array(rowStart[U]!);
  const next = rowStart.slice(0, U);
  for (let i = 0; i < G; i++) {
    const v = numberOfRow[i]!;
    if (v >= 0) rowList[next[v]!++] = i;
  }
  const out: { set: GeneSet; rows: Int32Array }[] = [];
  for (let k = 0; k < sets.length; k++) {
    const from = start[k]!;
    const to = start[k + 1]!;
    let count = 0;
    let genes = 0;
    for (let j = from; j < to; j++) {
      const v = members[j]!;
      const c = rowStart[v + 1]! - rowStart[v]!;
      count += c;
      if (c > 0) genes++;
    }
    if (count < minSize || genes > maxSize) continue;
    const rows = new Int32Array(count);
    let a = 0;
    for (let j = from; j < to; j++) {
      const v = members[j]!;
      for (let q = rowStart[v]!; q < rowStart[v + 1]!; q++) rows[a++] = rowList[q]!;
    }
    out.push({ set: sets[k]!, rows: rows.sort() });
  }
  return out;
}
