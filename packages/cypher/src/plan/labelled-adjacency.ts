// A slot adjacency narrowed to the far ends that carry some labels (`(n)<--(o:Disease)`): per node slot, only its
// relationships to such nodes. Built in one pass over the adjacency of the types and kept with it (and with the
// labels' membership it was narrowed by), so an expansion to a labelled end reads only the matches instead of
// every relationship of the node and a label test per far end.
import type { SlotAdjacency } from './var-paths.js';

export interface NarrowAdjacency {
  offsets: Int32Array;
  /** The relationship slots, for uniqueness tests across hops (chain-columns.ts). */
  rel: Int32Array;
  far: Int32Array;
}

const kept = new WeakMap<SlotAdjacency, Map<string, { member: Uint8Array; adj: NarrowAdjacency }>>();

/** `adj` keeping only the far slots `member` marks (1), kept per adjacency, labels and membership array. */
export function narrowed(adj: SlotAdjacency, labels: readonly string[], member: Uint8Array): NarrowAdjacency {
  let byLabels = kept.get(adj);
  if (!byLabels) {
    byLabels = new Map();
    kept.set(adj, byLabels);
  }
  const key = labels.join('\u0000');
  const hit = byLabels.get(key);
  if (hit && hit.member === member) return hit.adj;
  const n = adj.offsets.length - 1;
  const offsets = new Int32Array(n + 1);
  let m = 0;
  for (let s = 0; s < n; s++) {
    for (let j = adj.offsets[s]!; j < adj.offsets[s + 1]!; j++) if (member[adj.far[j]!] === 1) m++;
    offsets[s + 1] = m;
  }
  const far = new Int32Array(m);
  const rel = new Int32Array(m);
  for (let s = 0, at = 0; s < n; s++) {
    for (let j = adj.offsets[s]!; j < adj.offsets[s + 1]!; j++) {
      if (member[adj.far[j]!] !== 1) continue;
      rel[at] = adj.rel[j]!;
      far[at++] = adj.far[j]!;
    }
  }
  const out = { offsets, rel, far };
  byLabels.set(key, { member, adj: out });
  return out;
}
