// What changed since the last version whose per-snapshot entries were kept (snapshot-cache.ts), when a write only
// appended claims: the base grows by appends, so the first query after an ingest extends the kept label rows,
// orders, counts and fact passes by the entities and facts added, instead of deriving them from every entity and
// fact again. Anything else since (a retraction, a claim turned inactive, an entity given another type, a fact or
// an entity that had no live claim and has one again) gives undefined: the entries are made afresh.
import type { ReadContext } from '../graph/read.js';
import { previousEntries, type SnapshotCache, watermark, type Watermark } from './snapshot-cache.js';

export interface Appended {
  /** The base's size when the previous entries were made: entities and facts from there on are new. */
  mark: Watermark;
  previous: SnapshotCache;
  /** Facts from before the mark that were given claims since (their confidence may have moved), ascending. */
  touchedFacts: Int32Array;
}

const APPENDED = '\u0002appended';

/** EVIDENT_CYPHER_GROW=0 makes the entries afresh after every write (for before/after measurements). */
const OFF = typeof process !== 'undefined' && process.env.EVIDENT_CYPHER_GROW === '0';

/** The appends since the previous entries, worked out once per version; undefined when not only appends. */
export function appendedSince(rc: ReadContext, cache: SnapshotCache | undefined): Appended | undefined {
  if (!cache || !rc.live || OFF) return undefined;
  if (cache.has(APPENDED)) return (cache.get(APPENDED) as Appended | null) ?? undefined;
  const found = compute(rc) ?? null;
  cache.set(APPENDED, found);
  return found ?? undefined;
}

function compute(rc: ReadContext): Appended | undefined {
  const prev = previousEntries(rc);
  if (!prev) return undefined;
  const was = prev.mark;
  const now = watermark(rc);
  if (now.retractions !== was.retractions || now.otherTypes !== was.otherTypes) return undefined;
  if (now.entities < was.entities || now.facts < was.facts || now.claims < was.claims) return undefined;
  // Every new claim live and no earlier one changed: the live count grew by exactly the claims added.
  if (now.active - was.active !== now.claims - was.claims) return undefined;
  const s = rc.s;
  const touched = new Set<number>();
  const checked = new Set<number>();
  for (let c = was.claims; c < now.claims; c++) {
    const f = s.claimFact[c]!;
    if (f < was.facts) {
      // An earlier fact must have been live already (else it reappears in the passes).
      if (!touched.has(f) && !hadLiveClaim(rc, f, was.claims)) return undefined;
      touched.add(f);
      continue;
    }
    // A new fact's earlier ends must have been visible already (else they reappear in the label rows).
    for (const e of [s.factS[f]!, s.factO[f]!]) {
      if (e >= was.entities || checked.has(e)) continue;
      if (!wasVisible(rc, e, was)) return undefined;
      checked.add(e);
    }
  }
  const touchedFacts = Int32Array.from(touched).sort();
  return { mark: was, previous: prev.items, touchedFacts };
}

function hadLiveClaim(rc: ReadContext, f: number, claims: number): boolean {
  const s = rc.s;
  for (let c = s.factFirst[f]!; c >= 0; c = s.claimNextInFact[c]!) if (c < claims && rc.isLive(c)) return true;
  return false;
}

/** Whether entity `e` had a live claim at the mark: one of its earlier facts had one. */
function wasVisible(rc: ReadContext, e: number, was: Watermark): boolean {
  const s = rc.s;
  for (let f = s.firstFact(e); f >= 0; f = s.nextFact(f, e)) {
    if (f < was.facts && hadLiveClaim(rc, f, was.claims)) return true;
  }
  return false;
}

/**
 * `make()` kept under `key`, or, when only claims were appended since the previous version's entry under the same
 * key, `grow(previous entry, appends)` (which may give undefined to make it afresh).
 */
export function memoGrown<T>(
  rc: ReadContext,
  cache: SnapshotCache | undefined,
  key: string,
  make: () => T,
  grow: (old: T, a: Appended) => T | undefined,
): T {
  if (!cache) return make();
  let v = cache.get(key) as T | undefined;
  if (v !== undefined) return v;
  const a = appendedSince(rc, cache);
  const old = a?.previous.get(key) as T | undefined;
  v = (old !== undefined && a ? grow(old, a) : undefined) ?? make();
  cache.set(key, v);
  return v;
}

/** Position of `f` in the ascending `facts`, or -1. */
export function positionOf(facts: Int32Array, f: number): number {
  let lo = 0;
  let hi = facts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (facts[mid]! < f) lo = mid + 1;
    else hi = mid;
  }
  return lo < facts.length && facts[lo] === f ? lo : -1;
}
