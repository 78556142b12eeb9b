// Counts of the graph as a read context sees it, and the index's size (stats()).
import { ReadContext } from '../graph/read.js';

export function indexStats<Store extends object>(rc: ReadContext, store: Store) {
  const s = rc.s;
  let entities = 0;
  for (const _ of rc.visibleEntities()) entities++;
  let active = 0;
  let retracted = 0;
  let degraded = 0;
  let total = 0;
  for (let c = 0; c < s.claimCount; c++) {
    if (!rc.exists(c)) continue;
    total++;
    const st = rc.statusOf(c);
    if (st === 'active') active++;
    else if (st === 'retracted') retracted++;
    else degraded++;
  }
  let facts = 0;
  for (let f = 0; f < s.factCount; f++) if (rc.factHasLive(f)) facts++;
  // Each fact is on its subject's and its object's list, a self-loop on one.
  const adjacency = 2 * s.factCount - s.selfLoops;
  return {
    entity_count: entities,
    claim_count: active,
    total_claims: total,
    retracted_claims: retracted,
    degraded_claims: degraded,
    content_groups: facts,
    sources: s.sourceIds.length,
    predicates: s.predName.length,
    as_of: rc.cutoff === Infinity ? null : new Date(rc.cutoff).toISOString(),
    ...store,
    index_size: {
      entities: s.entityIds.length,
      facts: s.factCount,
      claims: s.claimCount,
      adjacency_entries: adjacency,
      /**
       * Rough model of the index, in bytes: per claim 65 (typed-array columns), per fact 36 (columns and hash
       * slot), per entity 200 (id, names, maps), 8 per adjacency entry. Raw spellings, extra provenance and
       * payloads kept for claims that have them are not counted.
       */
      estimated_bytes: s.entityIds.length * 200 + s.factCount * 36 + s.claimCount * 65 + adjacency * 8,
    },
  };
}

/** What a snapshot's manifest records of the base it copies: live entities, active and all claims. */
export function snapshotCounts(s: ReadContext['s']): { entities: number; active_claims: number; claims: number } {
  const rc = new ReadContext(s, Infinity);
  let entities = 0;
  for (const _ of rc.visibleEntities()) entities++;
  return { entities, active_claims: s.activeClaims, claims: s.claimCount };
}
