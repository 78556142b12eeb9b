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
    slot.version = version;
    slot.items = new Map();
  }
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
