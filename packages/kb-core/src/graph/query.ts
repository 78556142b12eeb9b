// Query frames: the focal entity's direct relationships plus a breadth-first expansion to `depth` hops
// over active facts, and a narrative written from the claims.
import { performance } from 'node:perf_hooks';
import type { ExplainFrame, QueryFrame } from '../types.js';
import { DirectRows, ReachedRows, writeNarrative } from './query-rows.js';
import type { ReadContext } from './read.js';

export interface QueryOptions {
  depth?: number;
  /** Stop the expansion after this many entities (default 10,000); `truncated` says when it did. */
  max_entities?: number;
}

/**
 * The frame of entity e: its direct relationships, the entities within `depth` hops, a narrative. The walk
 * runs now, over the index's typed columns, and keeps what it finds as numbers (query-rows.ts); the
 * relationship and entity objects and the narrative are made when the caller first reads them (an explain
 * frame makes them at once: its timing is theirs).
 */
export function buildFrame(
  rc: ReadContext,
  e: number,
  options: QueryOptions,
  explain: boolean,
): ExplainFrame | QueryFrame {
  const t0 = performance.now();
  const depth = options.depth ?? 2;
  const maxEntities = options.max_entities ?? 10_000;
  const s = rc.s;
  let factsExamined = 0;
  let claimsExamined = 0;

  const t1 = performance.now();
  const direct = new DirectRows();
  const claimCounts = s.factClaimCount;
  const factS = s.factS;
  const nextS = s.factNextS;
  const nextO = s.factNextO;
  for (let f = s.entityFirstFact[e]!; f >= 0; f = factS[f] === e ? nextS[f]! : nextO[f]!) {
    factsExamined++;
    claimsExamined += claimCounts[f]!;
    direct.add(rc, f, e);
  }
  direct.sort(s.entityIds);
  let relationships = explain ? direct.relationships(rc, e) : undefined;

  const t2 = performance.now();
  const walk = expand(rc, e, depth, maxEntities);
  factsExamined += walk.factsExamined;
  const reached = walk.rows;
  let entities = explain ? reached.entities(rc) : undefined;

  const t3 = performance.now();
  const focal = rc.summary(e);
  let narrative = explain ? writeNarrative(rc, e, focal.claim_count, direct, reached, depth) : undefined;
  const t4 = performance.now();
  // Own enumerable accessors, in the order the frame's fields always had: JSON, spreads, deepEqual and Object.keys
  // read them as the plain fields they stand for; a caller may still set them.
  const frame: QueryFrame & { truncated?: boolean } = {
    focal_entity: focal,
    claim_count: focal.claim_count,
    get direct_relationships() {
      relationships ??= direct.relationships(rc, e);
      return relationships;
    },
    set direct_relationships(v) {
      relationships = v;
    },
    depth,
    get entities() {
      entities ??= reached.entities(rc);
      return entities;
    },
    set entities(v) {
      entities = v;
    },
    get narrative() {
      narrative ??= writeNarrative(rc, e, focal.claim_count, direct, reached, depth);
      return narrative;
    },
    set narrative(v) {
      narrative = v;
    },
  };
  if (walk.truncated) frame.truncated = true;
  if (!explain) return frame;
  return {
    ...frame,
    timing: { resolve_ms: t1 - t0, direct_ms: t2 - t1, expand_ms: t3 - t2, narrative_ms: t4 - t3, total_ms: t4 - t0 },
    candidates: { facts_examined: factsExamined, claims_examined: claimsExamined, entities_examined: walk.seen },
  };
}

// Deliberate likeness (query-rows.ts add/addMany): columns hoisted into locals before the loop, alike in shape only.
/** Breadth-first from e over facts with a live claim, to `depth` hops or `maxEntities` entities. */
function expand(
  rc: ReadContext,
  e: number,
  depth: number,
  maxEntities: number,
): { rows: ReachedRows; factsExamined: number; seen: number; truncated: boolean } {
  const s = rc.s;
  const rows = new ReachedRows();
  const { entity, via, distance, count } = rows;
  const factS = s.factS;
  const factO = s.factO;
  // Live reads test a fact's bit in deadFacts (none when no retraction was ever made), as-of reads its claims.
  const dead = rc.live ? s.deadFacts : null;
  const factSources = s.factSources;
  const deadCovered = dead === null ? 0 : s.deadFactsCovered;
  const active = s.entityActive;
  const live = rc.live;
  const first = s.entityFirstFact;
  const nextS = s.factNextS;
  const nextO = s.factNextO;
  // Each entity's facts in a row (adjacency.ts), then the facts added since the rows were made.
  const adj = s.adjacency;
  const rowStart = adj.start;
  const rowFact = adj.fact;
  const rowOther = adj.other;
  const rowEntities = adj.entities;
  // Visited entities as bits (a million-claim base's 100,000 entities in 12.5 KB, in the first-level cache
  // where a mark per entity was a cache miss per fact), cleared after the walk from the entities it reached.
  const seen = visitBits(s.entityIds.length);
  seen[e >>> 5]! |= 1 << (e & 31);
  let seenCount = 1;
  let factsExamined = 0;
  /** v reached from u at hop d over fact f, unless seen or f has no live claim; true once truncated. */
  const reach = (f: number, v: number, u: number, d: number): boolean => {
    const bit = 1 << (v & 31);
    if ((seen[v >>> 5]! & bit) !== 0) return false;
    // (A dead fact may live again since the bits were made: a claim added to it. Its source count says.)
    if (
      live ? f < deadCovered && (dead![f >>> 5]! & (1 << (f & 31))) !== 0 && factSources[f]! <= 0 : !rc.factHasLive(f)
    )
      return false;
    seen[v >>> 5]! |= bit;
    seenCount++;
    entity.push(v);
    via.push(u);
    distance.push(d);
    count.push(live ? active[v]! : rc.entityClaimCount(v));
    return entity.length >= maxEntities;
  };
  let truncated = false;
  // The frontier of hop d is hop d-1's entities: [from, to) of `entity` (the focal entity for hop 1).
  let from = 0;
  let to = 0;
  for (let d = 1; d <= depth && !truncated; d++) {
    const end = entity.length;
    for (let i = d === 1 ? -1 : from; i < (d === 1 ? 0 : to) && !truncated; i++) {
      const u = i < 0 ? e : entity[i]!;
      if (u < rowEntities) {
        const last = rowStart[u + 1]!;
        for (let j = rowStart[u]!; j < last; j++) {
          factsExamined++;
          if (reach(rowFact[j]!, rowOther[j]!, u, d)) {
            truncated = true;
            break;
          }
        }
        if (truncated) break;
      }
      // The rest of u's list, as firstFact/nextFact walk it, over the columns themselves.
      for (let f = adj.tail(u, first, factS, nextS, nextO), a = 0; f >= 0; f = a === u ? nextS[f]! : nextO[f]!) {
        factsExamined++;
        a = factS[f]!;
        if (reach(f, a === u ? factO[f]! : a, u, d)) {
          truncated = true;
          break;
        }
      }
    }
    from = end;
    to = entity.length;
    if (from === to) break;
  }
  seen[e >>> 5] = 0;
  for (const v of entity) seen[v >>> 5] = 0;
  bitsInUse = false;
  return { rows, factsExamined, seen: seenCount, truncated };
}

/** The walk's visited bits, all clear, one per entity (queries run one at a time, synchronously). */
let bits = new Uint32Array(1024);
/** Set while a walk holds the bits: a walk that threw left some set, so the next clears them all. */
let bitsInUse = false;
function visitBits(entities: number): Uint32Array {
  if (bits.length * 32 < entities) bits = new Uint32Array(Math.max(bits.length * 2, (entities >>> 5) + 1));
  else if (bitsInUse) bits.fill(0);
  bitsInUse = true;
  return bits;
}
