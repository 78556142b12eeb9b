// Copy-on-write typed arrays: the typed-array half of graph/clone.ts's copyOnWrite mode, as the overlay map
// (overlay-map.ts) is the Map half. A what-if that adds a few claims to a million-claim index writes a few
// dozen rows of a dozen columns; copying every column for that (about 300 MB at a million claims) was most
// of the what-if's time and garbage, and copying a column on its first read moved that cost (and the
// collections it set off) to the view's first query. So a column of the copy reads as a Proxy over the
// original's array:
// - a row written (by the hypothetical apply, or by a reader: the entities' scratch marks) goes to a page of
//   the copy's own (PAGE rows, copied from the original when a row of it is first written); a row read is the
//   page's when there is one, else the original's. Columns and pages nobody writes are never copied;
// - a column read through more than a thirty-second of its length times (a scan of the whole base: analytics
//   on the view) becomes the copy's own array (the original's rows, then the pages), which the column's
//   property hands out from then on, so that such readers get their tight loops over a typed array back;
// - anything but rows and length (a method, the buffer) is the copy's own array's, made for it: a rare path,
//   kept correct rather than fast.
// The original must not change while a copy reads through to it: its owner detaches the copy first
// (GraphState.beforeChange), which makes every column the copy's own.

export type TypedArray =
  | Int8Array
  | Uint8Array
  | Uint8ClampedArray
  | Int16Array
  | Uint16Array
  | Int32Array
  | Uint32Array
  | Float32Array
  | Float64Array
  | BigInt64Array
  | BigUint64Array;

/**
 * Rows per page of written rows (4 KB of int32): a claim added writes rows at random places of a dozen columns,
 * and fresh memory costs this sandbox 3-4 ms per MB to fault in (16 KB pages made 100 added claims 90 ms).
 */
const SHIFT = 10;
const PAGE = 1 << SHIFT;

/** How a grown column (columns.ts' reserve) copies a copy-on-write array into its new array. */
const copiers = new WeakMap<object, (into: TypedArray) => void>();
/** Each copy-on-write array's column by its proxy, so that a column can grow without a copy (growInPlace). */
const columnsByProxy = new WeakMap<object, CowArray>();

/**
 * Grows a copy-on-write array to `size` rows in place, the new rows holding `fill` until written, and says
 * whether it did (false for any other array: the caller copies). A hypothetical claim pushed onto a full column
 * (a base reopened from its snapshot has no spare rows) would otherwise copy the whole column of the base: about
 * 355 ms over a dozen columns at a million claims.
 */
export function growInPlace(a: TypedArray, size: number, fill: number): boolean {
  return columnsByProxy.get(a)?.grow(size, fill) === true;
}

/** Copies `from`'s rows to the start of `into` (a larger array): a plain set, or a copy-on-write array's rows. */
export function copyRows(into: TypedArray, from: TypedArray): void {
  const copy = copiers.get(from);
  if (copy) copy(into);
  else (into as Int32Array).set(from as Int32Array);
}

/** The index a property key names, or -1 (a key that is not a canonical array index). */
function indexOf(key: string | symbol): number {
  if (typeof key !== 'string') return -1;
  const c = key.charCodeAt(0);
  if (c < 48 || c > 57) return -1;
  const i = +key;
  // (Not checked: a non-canonical spelling such as '01', which no reader of the index uses.)
  return i >>> 0 === i ? i : -1;
}

/** One column of a copy: the original's array, the rows written, and (once made) the copy's own array. */
export class CowArray {
  #base: TypedArray;
  #pages: Map<number, TypedArray> | null = null;
  #own: TypedArray | null = null;
  #proxy: TypedArray | null = null;
  /** Reads through the proxy left before the column becomes the copy's own (see the head of this file). */
  #budget: number;
  /** The copy's rows: the original's, then (once grown) rows holding `#fill` until written. */
  #length: number;
  #fill = 0;

  constructor(base: TypedArray) {
    this.#base = base;
    this.#budget = Math.max(4096, base.length >> 5);
    this.#length = base.length;
  }

  /** Grows the copy to `size` rows (new ones hold `fill`) while it reads through; false once it is its own. */
  grow(size: number, fill: number): boolean {
    if (this.#own !== null) return false;
    if (size > this.#length) {
      this.#length = size;
      this.#fill = fill;
    }
    return true;
  }

  /** Whether the column still reads through to the original (its own array not made yet). */
  get attached(): boolean {
    return this.#own === null;
  }

  /** What a read of the column's property returns: see the head of this file. */
  get(): TypedArray {
    if (this.#own !== null) return this.#own;
    this.#proxy ??= this.makeProxy();
    return this.#proxy;
  }

  /** A new array set on the property (a grown column): the copy's own from then on. */
  set(a: TypedArray): void {
    this.#own = a;
    this.#pages = null;
  }

  /** Makes the copy's own array (the original's rows, then the pages written), once. */
  detach(): TypedArray {
    if (this.#own !== null) return this.#own;
    const own = this.make(this.#length);
    this.copyInto(own);
    this.set(own);
    return own;
  }

  private make(n: number): TypedArray {
    return new (this.#base.constructor as new (n: number) => TypedArray)(n);
  }

  /** The copy's rows into `into` (at least as long): the original's, the grown rows' fill, the pages written. */
  private copyInto(into: TypedArray): void {
    const base = this.#base as Int32Array;
    (into as Int32Array).set(base);
    if (this.#fill !== 0) (into as Int32Array).fill(this.#fill, base.length, this.#length);
    if (this.#pages === null) return;
    for (const [p, page] of this.#pages) {
      const room = Math.min(PAGE, this.#length - (p << SHIFT));
      (into as Int32Array).set((page as Int32Array).subarray(0, room), p << SHIFT);
    }
  }

  private read(i: number): number | bigint | undefined {
    if (--this.#budget < 0) return this.detach()[i];
    const pages = this.#pages;
    if (pages !== null) {
      const page = pages.get(i >> SHIFT);
      if (page !== undefined) return page[i & (PAGE - 1)];
    }
    const base = this.#base;
    return i < base.length ? base[i] : i < this.#length ? this.#fill : undefined;
  }

  private write(i: number, v: unknown): void {
    if (i >= this.#length) return; // as a typed array ignores a write past its end
    this.#pages ??= new Map();
    const p = i >> SHIFT;
    let page = this.#pages.get(p);
    if (page === undefined) {
      page = this.page(p);
      this.#pages.set(p, page);
    }
    (page as Int32Array)[i & (PAGE - 1)] = v as number;
  }

  /** Page p's rows as they read now: the original's, past its end the grown rows' fill. */
  private page(p: number): TypedArray {
    const base = this.#base;
    const from = p << SHIFT;
    if (from + PAGE <= base.length) return base.slice(from, from + PAGE);
    const page = this.make(PAGE) as Int32Array;
    if (this.#fill !== 0) page.fill(this.#fill);
    if (from < base.length) page.set((base as Int32Array).subarray(from));
    return page;
  }

  private makeProxy(): TypedArray {
    const proxy = new Proxy(this.#base, {
      get: (_t, key) => {
        if (this.#own === null) {
          const i = indexOf(key);
          if (i >= 0) return this.read(i);
          if (key === 'length') return this.#length;
        }
        const own = this.detach();
        const v = Reflect.get(own, key);
        return typeof v === 'function' ? v.bind(own) : v;
      },
      set: (_t, key, v) => {
        const i = this.#own === null ? indexOf(key) : -1;
        if (i >= 0) this.write(i, v);
        else Reflect.set(this.detach(), key, v);
        return true;
      },
      has: (_t, key) => {
        if (this.#own !== null) return Reflect.has(this.#own, key);
        const i = indexOf(key);
        return i >= 0 ? i < this.#length : Reflect.has(this.#base, key);
      },
    });
    copiers.set(proxy, (into) => {
      if (this.#own !== null) (into as Int32Array).set(this.#own as Int32Array);
      else this.copyInto(into);
    });
    columnsByProxy.set(proxy, this);
    return proxy;
  }
}

/**
 * A list of a copy (a JS array of strings or numbers: entity ids, names, types, source ids), as CowArray is a
 * column: the original's items read through, items written before its end kept in a Map, items past its end
 * (what the apply pushes) in a tail of the copy's own; a list read through more than a thirty-second of its
 * length times becomes the copy's own array. Array methods called on it work through its traps (they are
 * generic), so a push is three trapped steps: fine for the few the apply makes.
 */
export class CowList {
  #base: unknown[];
  #changed: Map<number, unknown> | null = null;
  #tail: unknown[] = [];
  #own: unknown[] | null = null;
  #proxy: unknown[] | null = null;
  #budget: number;

  constructor(base: unknown[]) {
    this.#base = base;
    this.#budget = Math.max(4096, base.length >> 5);
  }

  /**
   * Whether a list holds primitives (only such lists are read through). The index's lists each hold one kind
   * of item, so the first and the last tell: a scan of every item cost more than the rest of the copy.
   */
  static fits(a: unknown[]): boolean {
    const primitive = (x: unknown) => (typeof x === 'object' ? x === null : typeof x !== 'function');
    return a.length > 0 && primitive(a[0]) && primitive(a[a.length - 1]);
  }

  get attached(): boolean {
    return this.#own === null;
  }

  get(): unknown[] {
    if (this.#own !== null) return this.#own;
    this.#proxy ??= this.makeProxy();
    return this.#proxy;
  }

  set(a: unknown[]): void {
    this.#own = a;
    this.#changed = null;
    this.#tail = [];
  }

  detach(): unknown[] {
    if (this.#own !== null) return this.#own;
    const own = this.#base.concat(this.#tail);
    if (this.#changed !== null) for (const [i, v] of this.#changed) own[i] = v;
    this.set(own);
    return own;
  }

  private get length(): number {
    return this.#base.length + this.#tail.length;
  }

  private read(i: number): unknown {
    if (--this.#budget < 0) return this.detach()[i];
    const changed = this.#changed;
    if (changed?.has(i)) return changed.get(i);
    const n = this.#base.length;
    return i < n ? this.#base[i] : this.#tail[i - n];
  }

  private write(i: number, v: unknown): void {
    const n = this.#base.length;
    if (i >= n) this.#tail[i - n] = v;
    else {
      this.#changed ??= new Map();
      this.#changed.set(i, v);
    }
  }

  private makeProxy(): unknown[] {
    return new Proxy(this.#base, {
      get: (t, key) => {
        if (this.#own !== null) return Reflect.get(this.#own, key);
        const i = indexOf(key);
        if (i >= 0) return i < this.length ? this.read(i) : undefined;
        if (key === 'length') return this.length;
        // Methods (Array.prototype's, generic) and the iterator, which then read through these traps.
        return Reflect.get(t, key);
      },
      set: (_t, key, v) => {
        if (this.#own !== null) return Reflect.set(this.#own, key, v);
        const i = indexOf(key);
        if (i >= 0) this.write(i, v);
        else if (key === 'length' && typeof v === 'number' && v >= this.#base.length)
          this.#tail.length = v - this.#base.length;
        else Reflect.set(this.detach(), key, v);
        return true;
      },
      has: (_t, key) => {
        if (this.#own !== null) return Reflect.has(this.#own, key);
        const i = indexOf(key);
        return i >= 0 ? i < this.length : Reflect.has(this.#base, key);
      },
      // Anything else (keys, descriptors, definitions, deletions) is the copy's own array's.
      ownKeys: () => Reflect.ownKeys(this.detach()),
      getOwnPropertyDescriptor: (_t, key) => Reflect.getOwnPropertyDescriptor(this.detach(), key),
      defineProperty: (_t, key, d) => Reflect.defineProperty(this.detach(), key, d),
      deleteProperty: (_t, key) => Reflect.deleteProperty(this.detach(), key),
    });
  }
}
