// When computeTopology may update the previous result instead of starting again, and from what: the previous
// level-0 partition over the current graph's nodes, and the nodes whose facts changed since. A result records
// where the index stood when its graph was read (`basis`: claims and retractions applied, in log order, so a claim
// numbered at or above `claim_count` and a retraction at or above `retraction_count` came later); the entities of
// those claims, and of the claims those retractions retracted or degraded, are the changed ones.
import type { ReadContext } from '../graph/read.js';
import type { EntityGraph } from './entity-graph.js';
import type { StoredTopology, TopologyBasis } from './types.js';

/**
 * The default largest share of the graph's entities that may have changed for an incremental update: the issue's
 * bound (a batch touching under 1% of the entities). Above it a full recompute runs, whose cost does not grow with
 * the change. `incremental_max_fraction` sets another.
 */
export const INCREMENTAL_MAX_FRACTION = 0.01;

export type TopologySettings = TopologyBasis['settings'];

/** Where the index stands now, with the settings of the computation. */
export function basisOf(rc: ReadContext, settings: TopologySettings): TopologyBasis {
  return {
    claim_count: rc.s.claimCount,
    retraction_count: rc.s.retractions.length,
    as_of: rc.cutoff === Infinity ? null : rc.cutoff,
    settings,
  };
}

export type IncrementalPlan =
  | { kind: 'incremental'; previous: Int32Array; changed: Int32Array }
  | { kind: 'full'; reason: string };

/** Whether and how to update `stored` to `graph` (read at `basis`). */
export function planUpdate(
  rc: ReadContext,
  graph: EntityGraph,
  stored: StoredTopology | undefined,
  basis: TopologyBasis,
  maxFraction: number,
): IncrementalPlan {
  const old = stored?.basis;
  if (!stored || !old) return { kind: 'full', reason: 'no previous result to update' };
  if (JSON.stringify(old.settings) !== JSON.stringify(basis.settings)) {
    return { kind: 'full', reason: 'the previous result was computed with other settings' };
  }
  if (old.as_of !== basis.as_of) return { kind: 'full', reason: 'the previous result is of another moment' };
  if (old.claim_count > basis.claim_count || old.retraction_count > basis.retraction_count) {
    return { kind: 'full', reason: 'the previous result is not of this log' };
  }
  const s = rc.s;
  const { nodeOf } = graph;
  const changedEntity = new Uint8Array(s.entityIds.length);
  let changedCount = 0;
  const mark = (f: number) => {
    for (const e of [s.factS[f]!, s.factO[f]!]) {
      if (changedEntity[e] === 0 && nodeOf[e]! >= 0) {
        changedEntity[e] = 1;
        changedCount++;
      }
    }
  };
  for (let c = old.claim_count; c < basis.claim_count; c++) mark(s.claimFact[c]!);
  for (let r = old.retraction_count; r < basis.retraction_count; r++) {
    const { retracted, degraded } = s.retractions[r]!;
    for (const c of retracted) mark(s.claimFact[c]!);
    for (const c of degraded) mark(s.claimFact[c]!);
  }
  const n = graph.csr.n;
  if (changedCount > maxFraction * n) {
    return {
      kind: 'full',
      reason: `${changedCount} of ${n} entities changed, more than ${maxFraction} of them`,
    };
  }
  // The previous partition over today's nodes: entities found by id, new ones −1. An id the index does not know
  // means the base is not the one the result was computed on.
  const previous = new Int32Array(n).fill(-1);
  const level0 = stored.memberships[0];
  if (!level0) return { kind: 'full', reason: 'the previous result has no partition' };
  for (let i = 0; i < stored.entity_ids.length; i++) {
    const e = s.entityIndex.get(stored.entity_ids[i]!);
    if (e === undefined) return { kind: 'full', reason: 'the previous result names entities this base does not have' };
    const node = nodeOf[e]!;
    if (node >= 0) previous[node] = level0[i]!;
  }
  const changed = new Int32Array(changedCount);
  let k = 0;
  for (let node = 0; node < n; node++) if (changedEntity[graph.entities[node]!] === 1) changed[k++] = node;
  return { kind: 'incremental', previous, changed };
}
