// What a query derives from the read snapshot and the next query would derive again (the fact columns of a
// relationship aggregation, the visible entities of a label, the name and id dictionaries, the label
// counts), kept across queries while the snapshot is unchanged: ReadSnapshot.version, which the graph bumps
// before every write (claims, retractions, vocabularies), says so. Kept per snapshot object, weakly: a
// what-if view's graph (a copy, or an overlay over the base) is an object of its own with entries of its own,
// so it never reads nor fills the base's; a replica thread has its own module and its own graph. Per snapshot,
// one slot per cutoff (the live state and the last at(t) asked), emptied when the version moves.
import type { ReadContext } from '../graph/read.js';

export type SnapshotCache = Map<string, unknown>;

interface Slot {
  cutoff: number;
  version: number;
  items: SnapshotCache;
  /** The base's size when `items` were made (the live view only). */
  mark?: Watermark;
  /** The last version's entries and mark, for extension while only claims were appended since (appended.ts). */
  previous?: { items: SnapshotCache; mark: Watermark };
}

/** What the base held when a version's entries were made: enough to tell whether claims were only appended. */
export interface Watermark {
  entities: number;
  facts: number;
  claims: number;
  active: number;
  retractions: number;
  otherTypes: number;
}

export function watermark(rc: ReadContext): Watermark {
  const s = rc.s;
  let otherTypes = 0;
  for (const t of s.entityOtherTypes.values()) otherTypes += t.length;
  return {
    entities: s.entityIds.length,
    facts: s.factCount,
    claims: s.claimCount,
    active: s.activeClaims,
    retractions: s.retractions.length,
    otherTypes,
  };
}

/** The entries of this context's previous version and their mark, while kept (live view only). */
export function previousEntries(rc: ReadContext): { items: SnapshotCache; mark: Watermark } | undefined {
  return slots.get(rc.s)?.find((x) => x.cutoff === rc.cutoff)?.previous;
}

const slots = new WeakMap<object, Slot[]>();

/** EVIDENT_CYPHER_SNAPSHOT_CACHE=0 keeps nothing: every query derives afresh (for before/after measurements). */
const OFF = typeof process !== 'undefined' && process.env.EVIDENT_CYPHER_SNAPSHOT_CACHE === '0';

/** Entries per slot before it is emptied: keys are label and type lists a user may vary without end. */
const MAX_ITEMS = 64;

/** The entries kept for this context's snapshot and cutoff, or undefined when the snapshot has no version. */
export function snapshotCache(rc: ReadContext): SnapshotCache | undefined {
  const version = rc.s.version;
  if (version === undefined || OFF) return undefined;
  let list = slots.get(rc.s);
  if (!list) {
    list = [];
    slots.set(rc.s, list);
  }
  let slot = list.find((x) => x.cutoff === rc.cutoff);
  if (!slot) {
    // The live slot stays; an at(t) view takes the other one.
    if (list.length >= 2) list.splice(list[0]!.cutoff === Infinity ? 1 : 0, 1);
    slot = { cutoff: rc.cutoff, version, items: new Map() };
    list.push(slot);
  }
  if (slot.version !== version || slot.items.size >= MAX_ITEMS) {
    // The live view's entries outlive a write as `previous`: the next query extends them when only claims
    // were appended (appended.ts), instead of deriving them from every entity and fact again.
    // A version no query read keeps the entries before it: they extend across both writes.
    if (slot.version !== version && slot.mark && slot.items.size > 0)
      slot.previous = { items: slot.items, mark: slot.mark };
    if (slot.cutoff !== Infinity) slot.previous = undefined;
    if (slot.version !== version) slot.mark = undefined;
    slot.version = version;
    slot.items = new Map();
  }
  if (slot.cutoff === Infinity && !slot.mark) slot.mark = watermark(rc);
  return slot.items;
}

/** `make()`, kept under `key` in `cache` when there is one. */
export function memo<T>(cache: SnapshotCache | undefined, key: string, make: () => T): T {
  if (!cache) return make();
  let v = cache.get(key) as T | undefined;
  if (v === undefined) {
    v = make();
    cache.set(key, v);
  }
  return v;
}
