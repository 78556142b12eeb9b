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
  const rowCount = rowStart.slice(1); // rows of each gene number
  for (let v = 0; v < U; v++) rowStart[v + 1]! += rowStart[v]!;
  const rowList = new Int32Array(rowStart[U]!);
  const next = rowStart.slice(0, U);
  for (let i = 0; i < G; i++) {
    const v = numberOfRow[i]!;
    if (v >= 0) rowList[next[v]!++] = i;
  }
  // which sets are in and their row counts, then every kept set's rows in one buffer (a view each)
  const kept: number[] = [];
  const counts: number[] = [];
  let total = 0;
  for (let k = 0; k < sets.length; k++) {
    const from = start[k]!;
    const to = start[k + 1]!;
    let count = 0;
    let genes = 0;
    // a set is out once it has more tested genes than maxSize: GO's large sets stop early, not at their end
    for (let j = from; j < to && genes <= maxSize; j++) {
      const c = rowCount[members[j]!]!;
      count += c;
      if (c > 0) genes++;
    }
    if (count < minSize || genes > maxSize) continue;
    kept.push(k);
    counts.push(count);
    total += count;
  }
  const all = new Int32Array(total + 1); // one spare slot: the single-row path writes before it counts
  const out: { set: GeneSet; rows: Int32Array }[] = new Array(kept.length);
  // every gene with at most one row (the default collapse): its row or -1, written without a branch
  let single = true;
  for (let v = 0; v < U && single; v++) single = rowCount[v]! <= 1;
  const rowOf = new Int32Array(U).fill(-1);
  if (single) for (let v = 0; v < U; v++) if (rowCount[v] === 1) rowOf[v] = rowList[rowStart[v]!]!;
  let a = 0;
  for (let s = 0; s < kept.length; s++) {
    const k = kept[s]!;
    const first = a;
    if (single)
      for (let j = start[k]!; j < start[k + 1]!; j++) {
        const r = rowOf[members[j]!]!;
        all[a] = r;
        a += (r >>> 31) ^ 1;
      }
    else
      for (let j = start[k]!; j < start[k + 1]!; j++) {
        const v = members[j]!;
        for (let q = rowStart[v]!; q < rowStart[v + 1]!; q++) all[a++] = rowList[q]!;
      }
    out[s] = { set: sets[k]!, rows: all.subarray(first, first + counts[s]!).sort() };
  }
  return out;
}
