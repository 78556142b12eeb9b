// A deep copy of a graph index, for what-if views that add claims: the copy takes the hypothetical apply while
// the base stays untouched, at the cost of copying the index in memory (typed arrays are block copies)
// instead of replaying the log (an open's worth of decoding and applying). Generic over the index's parts
// (class instances keep their prototypes; Maps, Sets, arrays and typed arrays are copied; an object reached
// twice is copied once, so shared references stay shared). `shared` objects are kept as they are: the
// registry (vocabularies with compiled validators), which applying claims reads but never writes.
// With `copyOnWrite`, Maps keyed by primitives are not copied but overlaid (overlay-map.ts): the copy reads
// the original's entries until it changes them, and copies an object value only when it reads it; and typed
// arrays held by an object's property are read through a copy-on-write column (cow-array.ts), which keeps the
// rows written in pages of its own. The original must then not change while the copy reads through to it:
// its owner calls the handle's detach() first, which copies what the overlays and columns still read.
// Hand-written: structuredClone drops prototypes, and the clone libraries on npm do not keep both prototypes
// and typed-array identity at this size without an object per element.
import { CowArray, CowList, type TypedArray } from './cow-array.js';
import { OverlayMap } from './overlay-map.js';

export interface IndexCopy<T> {
  copy: T;
  /** Whether some part of the copy still reads through to the original. */
  readonly attached: boolean;
  /** Makes the copy independent of the original (a no-op once it is, or without copyOnWrite). */
  detach(): void;
}

/** Each copy's handle lives as long as the copy does (the original holds it weakly; see GraphState.addReader). */
const handles = new WeakMap<object, IndexCopy<object>>();

export function cloneIndex<T extends object>(
  root: T,
  shared: ReadonlySet<object>,
  options: { copyOnWrite?: boolean } = {},
): IndexCopy<T> {
  let memo: Map<object, unknown> | null = new Map<object, unknown>();
  const overlays: Array<OverlayMap<unknown, unknown>> = [];
  const cows: Array<CowArray | CowList> = [];
  /**
   * What a property holding `x` reads through under copyOnWrite: a typed array's CowArray, a long list of
   * primitives' CowList (short lists are sliced), one per original; undefined for anything else.
   */
  const readThrough = (x: unknown): CowArray | CowList | undefined => {
    if (!options.copyOnWrite || typeof x !== 'object' || x === null) return undefined;
    const seen = memo!.get(x);
    if (seen !== undefined) return seen instanceof CowArray || seen instanceof CowList ? seen : undefined;
    let cow: CowArray | CowList;
    if (ArrayBuffer.isView(x) && !(x instanceof DataView)) cow = new CowArray(x as TypedArray);
    else if (Array.isArray(x) && x.length >= 1024 && CowList.fits(x)) cow = new CowList(x);
    else return undefined;
    memo!.set(x, cow);
    cows.push(cow);
    return cow;
  };
  const lift = (v: unknown) => clone(v);
  const clone = (v: unknown): unknown => {
    if (typeof v !== 'object' || v === null || shared.has(v)) return v;
    const seen = memo!.get(v);
    if (seen !== undefined) return seen;
    if (ArrayBuffer.isView(v)) {
      if (v instanceof DataView) throw new Error('cloneIndex: DataView is not supported');
      const c = (v as unknown as { slice(): object }).slice();
      memo!.set(v, c);
      return c;
    }
    // Arrays and Maps are copied natively, then only their object entries are cloned in place.
    if (Array.isArray(v)) {
      const c = v.slice();
      memo!.set(v, c);
      for (let i = 0; i < c.length; i++) {
        const x = c[i];
        if (typeof x === 'object' && x !== null) c[i] = clone(x);
      }
      return c;
    }
    if (v instanceof Map) {
      let objectKeys = false;
      if (options.copyOnWrite) {
        // The index's maps are keyed by one kind of key each, so the first tells: a scan of every key was most
        // of a copy's time on a million-claim index (the claim-id map alone holds a million).
        const first = v.keys().next();
        objectKeys = !first.done && typeof first.value === 'object' && first.value !== null;
      } else
        for (const k of v.keys())
          if (typeof k === 'object' && k !== null) {
            objectKeys = true;
            break;
          }
      if (!objectKeys && options.copyOnWrite) {
        const c = new OverlayMap(v as Map<unknown, unknown>, lift);
        memo!.set(v, c);
        overlays.push(c);
        return c;
      }
      const c = objectKeys ? new Map() : new Map(v);
      memo!.set(v, c);
      for (const [k, x] of v) {
        // Setting an existing key keeps its place, so the copy keeps the original's order.
        if (objectKeys) c.set(clone(k), typeof x === 'object' && x !== null ? clone(x) : x);
        else if (typeof x === 'object' && x !== null) c.set(k, clone(x));
      }
      return c;
    }
    if (v instanceof Set) {
      const c = new Set();
      memo!.set(v, c);
      for (const x of v) c.add(clone(x));
      return c;
    }
    if (v instanceof Date) return new Date(v.getTime());
    if (Object.isFrozen(v)) return v;
    const c = Object.create(Object.getPrototypeOf(v)) as Record<PropertyKey, unknown>;
    memo!.set(v, c);
    for (const key of Reflect.ownKeys(v)) {
      const d = Object.getOwnPropertyDescriptor(v, key)!;
      const x: unknown = d.value;
      const cow = readThrough(x);
      if (cow !== undefined) {
        // The property reads through (and an array set on it, a grown column, becomes the copy's own).
        Object.defineProperty(c, key, {
          get: () => cow.get(),
          set: (a: never) => cow.set(a),
          enumerable: d.enumerable,
          configurable: true,
        });
        continue;
      }
      if ('value' in d) d.value = clone(x);
      Object.defineProperty(c, key, d);
    }
    return c;
  };
  const copy = clone(root) as T;
  const handle: IndexCopy<T> = {
    copy,
    get attached() {
      return overlays.length > 0 || cows.some((c) => c.attached);
    },
    detach() {
      // Detaching lifts values, which can overlay maps (and columns) nested in them: until none is left.
      while (overlays.length > 0) overlays.pop()!.detach();
      while (cows.length > 0) cows.pop()!.detach();
      memo = null;
    },
  };
  handles.set(copy, handle);
  return handle;
}
