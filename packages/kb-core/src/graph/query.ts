// Query frames: the focal entity's direct relationships plus a breadth-first expansion to `depth` hops
// over active facts, and a narrative written from the claims.
import { performance } from 'node:perf_hooks';
import type { ExplainFrame, QueryFrame, ReachedEntity, Relationship } from '../types.js';
import { DirectRows, REACHED_FIELDS, ReachedRows, scratchReached, writeNarrative } from './query-rows.js';
import type { FactAdjacency } from './adjacency.js';
import type { ReadContext } from './read.js';

export interface QueryOptions {
  depth?: number;
  /** Stop the expansion after this many entities (default 10,000); `truncated` says when it did. */
  max_entities?: number;
}

interface FrameRows {
  rc: ReadContext;
  e: number;
  depth: number;
  /** The focal entity's claim count at query time. */
  claimCount: number;
  direct: DirectRows;
  reached: ReachedRows;
  relationships: Relationship[] | undefined;
  entities: ReachedEntity[] | undefined;
  narrative: string | undefined;
}

type LazyFrame = QueryFrame & { truncated?: boolean };

/** A base class whose constructor returns the object it is given, so that a subclass's fields go on that object. */
class Stamp {
  constructor(o: object) {
    // biome-ignore lint/correctness/noConstructorReturn: the point: the subclass's private field goes on `o`
    return o;
  }
}

/**
 * Where a frame keeps what its lazy fields are made from: a private field put on the plain frame object (see
 * Stamp). Private fields are not properties: JSON, spreads, Object.keys, Reflect.ownKeys, deepEqual and schema
 * validators (the MCP server's zod checks every own key) do not see it, as they would a symbol-keyed property.
 */
class FrameRowsOf extends Stamp {
  readonly #rows: FrameRows;
  constructor(frame: object, rows: FrameRows) {
    super(frame);
    this.#rows = rows;
  }
  static of(frame: object): FrameRows {
    return (frame as FrameRowsOf).#rows;
  }
}

// The lazy fields' accessors, made once. An object literal's `get x() {}` makes new closures per frame, and each
// frame then got a map of its own (old space) holding them: every frame's rows lived until the next full
// collection (issue 41: at 200,000 claims half a depth-2 query's CPU was the collector). Shared functions keep
// one map for every frame, and a frame that is dropped dies young.
const lazyField = <T>(make: (r: FrameRows) => T, key: 'relationships' | 'entities' | 'narrative') => ({
  get(this: LazyFrame): T {
    const r = FrameRowsOf.of(this);
    let v = r[key] as T | undefined;
    if (v === undefined) {
      v = make(r);
      (r as unknown as Record<string, T>)[key] = v;
    }
    return v;
  },
  set(this: LazyFrame, v: T): void {
    (FrameRowsOf.of(this) as unknown as Record<string, T>)[key] = v;
  },
  enumerable: true,
  configurable: true,
});
const RELATIONSHIPS = lazyField((r) => r.direct.relationships(r.rc, r.e), 'relationships');
const ENTITIES = lazyField((r) => r.reached.entities(r.rc), 'entities');
const NARRATIVE = lazyField((r) => writeNarrative(r.rc, r.e, r.claimCount, r.direct, r.reached, r.depth), 'narrative');

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
  const t0 = explain ? performance.now() : 0;
  const depth = options.depth ?? 2;
  const maxEntities = options.max_entities ?? 10_000;
  const s = rc.s;
  let factsExamined = 0;
  let claimsExamined = 0;

  const t1 = explain ? performance.now() : 0;
  const direct = new DirectRows();
  DirectRows.start();
  const claimCounts = s.factClaimCount;
  const factS = s.factS;
  const nextS = s.factNextS;
  const nextO = s.factNextO;
  // e's facts from its row (adjacency.ts: side by side, where the list jumps between columns), then the list's tail.
  const adj = s.adjacency;
  if (e < adj.entities) {
    const rowFact = adj.fact;
    for (let j = adj.start[e]!, last = adj.start[e + 1]!; j < last; j++) {
      const f = rowFact[j]!;
      factsExamined++;
      claimsExamined += claimCounts[f]!;
      DirectRows.add(rc, f, e);
    }
  }
  for (
    let f = adj.tail(e, s.entityFirstFact, factS, nextS, nextO);
    f >= 0;
    f = factS[f] === e ? nextS[f]! : nextO[f]!
  ) {
    factsExamined++;
    claimsExamined += claimCounts[f]!;
    DirectRows.add(rc, f, e);
  }
  direct.finish();
  const rows: FrameRows = {
    rc,
    e,
    depth,
    claimCount: 0,
    direct,
    reached: undefined as unknown as ReachedRows,
    relationships: explain ? direct.relationships(rc, e) : undefined,
    entities: undefined,
    narrative: undefined,
  };

  const t2 = explain ? performance.now() : 0;
  const walk = expand(rc, adj, e, depth, maxEntities);
  factsExamined += walk.factsExamined;
  const reached = new ReachedRows(walk.rows);
  rows.reached = reached;
  if (explain) rows.entities = reached.entities(rc);

  const t3 = explain ? performance.now() : 0;
  const focal = rc.summary(e);
  rows.claimCount = focal.claim_count;
  if (explain) rows.narrative = writeNarrative(rc, e, focal.claim_count, direct, reached, depth);
  const t4 = explain ? performance.now() : 0;
  // Own enumerable properties in the order the frame's fields always had (the lazy ones as accessors): JSON,
  // spreads, deepEqual and Object.keys read them as the plain fields they stand for; a caller may still set them.
  const frame = { focal_entity: focal, claim_count: focal.claim_count } as LazyFrame;
  new FrameRowsOf(frame, rows);
  Object.defineProperty(frame, 'direct_relationships', RELATIONSHIPS);
  frame.depth = depth;
  Object.defineProperty(frame, 'entities', ENTITIES);
  Object.defineProperty(frame, 'narrative', NARRATIVE);
  if (walk.truncated) frame.truncated = true;
  if (!explain) return frame;
  return {
    ...frame,
    timing: { resolve_ms: t1 - t0, direct_ms: t2 - t1, expand_ms: t3 - t2, narrative_ms: t4 - t3, total_ms: t4 - t0 },
    candidates: { facts_examined: factsExamined, claims_examined: claimsExamined, entities_examined: walk.seen },
  };
}

/** What expand found: the reached rows (REACHED_FIELDS integers per entity) and what it examined. */
interface Walk {
  rows: number[];
  factsExamined: number;
  seen: number;
  truncated: boolean;
}

// Deliberate likeness (query-rows.ts add/addMany): columns hoisted into locals before the loop, alike in shape only.
/** Breadth-first from e over facts with a live claim, to `depth` hops or `maxEntities` entities. */
function expand(rc: ReadContext, adj: FactAdjacency, e: number, depth: number, maxEntities: number): Walk {
  const s = rc.s;
  // REACHED_FIELDS per entity: entity, via, distance, claim count (see query-rows.ts).
  const out = scratchReached;
  let n = 0;
  const factS = s.factS;
  const factO = s.factO;
  // Live reads test a fact's bit in deadFacts (none when no retraction was ever made), as-of reads its claims.
  const live = rc.live;
  const dead = live ? s.deadFacts : null;
  const factSources = s.factSources;
  const deadCovered = dead === null ? 0 : s.deadFactsCovered;
  const active = s.entityActive;
  const first = s.entityFirstFact;
  const nextS = s.factNextS;
  const nextO = s.factNextO;
  // Each entity's facts in a row (adjacency.ts), then the facts added since the rows were made.
  const rowStart = adj.start;
  const rowFact = adj.fact;
  const rowOther = adj.other;
  const rowEntities = adj.entities;
  // Visited entities as bits (a million-claim base's 100,000 entities in 12.5 KB, in the first-level cache
  // where a mark per entity was a cache miss per fact), cleared after the walk from the entities it reached.
  const seen = visitBits(s.entityIds.length);
  seen[e >>> 5]! |= 1 << (e & 31);
  let factsExamined = 0;
  let truncated = false;
  // The frontier of hop d is hop d-1's entities: rows [from, to) of `out` (the focal entity for hop 1).
  let from = 0;
  let to = 0;
  for (let d = 1; d <= depth && !truncated; d++) {
    const end = n;
    for (let i = d === 1 ? -1 : from; i < (d === 1 ? 0 : to) && !truncated; i++) {
      const u = i < 0 ? e : out[i * REACHED_FIELDS]!;
      // u's row (when the rows cover u), then the rest of its list as firstFact/nextFact walk it. Per fact:
      // v reached from u over f, unless seen or f has no live claim.
      let j = u < rowEntities ? rowStart[u]! : 0;
      const last = u < rowEntities ? rowStart[u + 1]! : 0;
      // f: the fact just walked; -2 before any. After a non-empty row, the fact after its last is where
      // adj.tail() goes on, so only an empty row asks tail() where the list continues.
      let f = -2;
      for (;;) {
        let v: number;
        if (j < last) {
          f = rowFact[j]!;
          v = rowOther[j++]!;
        } else {
          f = f === -2 ? adj.tail(u, first, factS, nextS, nextO) : factS[f] === u ? nextS[f]! : nextO[f]!;
          if (f < 0) break;
          const a = factS[f]!;
          v = a === u ? factO[f]! : a;
        }
        factsExamined++;
        const bit = 1 << (v & 31);
        if ((seen[v >>> 5]! & bit) !== 0) continue;
        // (A dead fact may live again since the bits were made: a claim added to it. Its source count says.)
        if (
          live
            ? f < deadCovered && (dead![f >>> 5]! & (1 << (f & 31))) !== 0 && factSources[f]! <= 0
            : !rc.factHasLive(f)
        )
          continue;
        seen[v >>> 5]! |= bit;
        let k = n * REACHED_FIELDS;
        out[k++] = v;
        out[k++] = u;
        out[k++] = d;
        out[k] = live ? active[v]! : rc.entityClaimCount(v);
        if (++n >= maxEntities) {
          truncated = true;
          break;
        }
      }
    }
    from = end;
    to = n;
    if (from === to) break;
  }
  seen[e >>> 5] = 0;
  for (let i = 0; i < n; i++) seen[out[i * REACHED_FIELDS]! >>> 5] = 0;
  bitsInUse = false;
  return { rows: out.slice(0, n * REACHED_FIELDS), factsExamined, seen: n + 1, truncated };
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
