// A deep copy of a graph index, for what-if views that add claims: the copy takes the hypothetical apply while
// the base stays untouched, at the cost of copying the index in memory (typed arrays are block copies)
// instead of replaying the log (an open's worth of decoding and applying). Generic over the index's parts
// (class instances keep their prototypes; Maps, Sets, arrays and typed arrays are copied; an object reached
// twice is copied once, so shared references stay shared). `shared` objects are kept as they are: the
// registry (vocabularies with compiled validators), which applying claims reads but never writes.
// Hand-written: structuredClone drops prototypes, and the clone libraries on npm do not keep both prototypes
// and typed-array identity at this size without an object per element.
export function cloneIndex<T extends object>(root: T, shared: ReadonlySet<object>): T {
  const memo = new Map<object, unknown>();
  const clone = (v: unknown): unknown => {
    if (typeof v !== 'object' || v === null || shared.has(v)) return v;
    const seen = memo.get(v);
    if (seen !== undefined) return seen;
    if (ArrayBuffer.isView(v)) {
      if (v instanceof DataView) throw new Error('cloneIndex: DataView is not supported');
      const c = (v as unknown as { slice(): object }).slice();
      memo.set(v, c);
      return c;
    }
    // Arrays and Maps are copied natively, then only their object entries are cloned in place.
    if (Array.isArray(v)) {
      const c = v.slice();
      memo.set(v, c);
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
      const c = objectKeys ? new Map() : new Map(v);
      memo.set(v, c);
      for (const [k, x] of v) {
        // Setting an existing key keeps its place, so the copy keeps the original's order.
        if (objectKeys) c.set(clone(k), typeof x === 'object' && x !== null ? clone(x) : x);
        else if (typeof x === 'object' && x !== null) c.set(k, clone(x));
      }
      return c;
    }
    if (v instanceof Set) {
      const c = new Set();
      memo.set(v, c);
      for (const x of v) c.add(clone(x));
      return c;
    }
    if (v instanceof Date) return new Date(v.getTime());
    if (Object.isFrozen(v)) return v;
    const c = Object.create(Object.getPrototypeOf(v)) as Record<PropertyKey, unknown>;
    memo.set(v, c);
    for (const key of Reflect.ownKeys(v)) {
      const d = Object.getOwnPropertyDescriptor(v, key)!;
      if ('value' in d) d.value = clone(d.value);
      Object.defineProperty(c, key, d);
    }
    return c;
  };
  return clone(root) as T;
}
