// The entity graph of active claims as a symmetric CSR matrix for @evident/graph-algorithms: one node per
// entity with an active claim (at the read context's moment), A_ij = the number of distinct active facts between
// i and j in either direction, or (weighted) the sum of those facts' confidences (noisy-OR over sources, as the
// query frame computes it). Facts from an entity to itself are left out: they join no two entities.
import { type CsrGraph, csrFromEdges, SHARED_ARRAYS } from '@evident/graph-algorithms';
import type { ReadContext } from '../graph/read.js';

export interface EntityGraph {
  csr: CsrGraph;
  /** Node → entity index in the snapshot. */
  entities: Int32Array;
  /** Entity index → node, −1 for entities not in the graph. */
  nodeOf: Int32Array;
  /** Facts in the index when the graph was built: later ones (written while Leiden ran) are not in it. */
  factCount: number;
}

// Deliberate likeness: knowledgeHealth (analytics/health.ts) opens the same way (per-entity arrays sized from one
// ReadContext); only the opening is alike: this walks facts for a matrix, that one claims for five metrics.
export function entityGraph(rc: ReadContext, weighted: boolean): EntityGraph {
  const s = rc.s;
  const nE = s.entityIds.length;
  const nodeOf = new Int32Array(nE).fill(-1);
  const list: number[] = [];
  for (const e of rc.visibleEntities()) {
    nodeOf[e] = list.length;
    list.push(e);
  }
  let m = 0;
  const src = new Int32Array(s.factCount);
  const tgt = new Int32Array(s.factCount);
  const wts = new Float64Array(s.factCount);
  for (let f = 0; f < s.factCount; f++) {
    const a = s.factS[f]!;
    const b = s.factO[f]!;
    if (a === b || !rc.factHasLive(f)) continue;
    const na = nodeOf[a]!;
    const nb = nodeOf[b]!;
    if (na < 0 || nb < 0) continue;
    let w = 1;
    if (weighted) w = rc.relationship(f, a)?.confidence ?? 0;
    src[m] = na;
    tgt[m] = nb;
    wts[m++] = w;
  }
  // In shared memory: Leiden's threads read it as it is, where a copy for them was another matrix's worth.
  const csr = csrFromEdges(list.length, src.subarray(0, m), tgt.subarray(0, m), wts.subarray(0, m), SHARED_ARRAYS);
  return { csr, entities: Int32Array.from(list), nodeOf, factCount: s.factCount };
}
