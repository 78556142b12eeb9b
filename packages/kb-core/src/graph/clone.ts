// A deep copy of a graph index, for what-if views that add claims: the copy takes the hypothetical apply while
// the base stays untouched, at the cost of copying the index in memory (typed arrays are block copies)
// instead of replaying the log (an open's worth of decoding and applying). Generic over the index's parts
// (class instances keep their prototypes; Maps, Sets, arrays and typed arrays are copied; an object reached
// twice is copied once, so shared references stay shared). `shared` objects are kept as they are: the
// registry (vocabularies with compiled validators), which applying claims reads but never writes.
// With `copyOnWrite`, Maps keyed by primitives are not copied but overlaid (overlay-map.ts): the copy reads
// the original's entries until it changes them, and copies an object value only when it reads it. On a
// million-claim base the Maps (entity, name and content indexes; a hundred thousand small arrays) were most of
// the copy's time and garbage; the typed arrays are block copies either way. The original must then not
// change while the copy reads through to it: its owner calls the handle's detach() first, which copies what
// the overlays still read.
// Hand-written: structuredClone drops prototypes, and the clone libraries on npm do not keep both prototypes
// and typed-array identity at this size without an object per element.
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
      if ('value' in d) d.value = clone(d.value);
      Object.defineProperty(c, key, d);
    }
    return c;
  };
  const copy = clone(root) as T;
  const handle: IndexCopy<T> = {
    copy,
    get attached() {
      return overlays.length > 0;
    },
    detach() {
      // Detaching lifts values, which can overlay maps nested in them: until none is left.
      while (overlays.length > 0) overlays.pop()!.detach();
      memo = null;
    },
  };
  handles.set(copy, handle);
  return handle;
}
