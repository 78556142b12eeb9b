// A Map that starts as a view of another Map and keeps its own changes: the copy-on-write half of
// graph/clone.ts. Reads fall through to the original until a key is written or deleted here; an object value
// read from the original is first copied (`lift`) and kept here, so whatever a caller does to it stays in
// this map. The original must not change while it is read through: the owner of the original calls detach()
// (via the clone's handle) before it writes, and the overlay then copies what it still reads. Iteration
// order is a Map's: the original's keys in their order (a key deleted here and set again moves to the end),
// then the keys added here.
// Hand-written: no maintained npm package layers one Map over another while staying a Map (instanceof,
// iteration order, size) for the code that reads it.
export class OverlayMap<K, V> extends Map<K, V> {
  #base: Map<K, V>;
  /** Keys of the original deleted here (so skipped there); one set again here iterates with the added keys. */
  #dead: Set<K> | null = null;
  /** Keys here that the original does not hold live (so they count towards the size). */
  #added = 0;
  #lift: ((v: V) => V) | null;

  constructor(base: Map<K, V>, lift: (v: V) => V) {
    super();
    this.#base = base;
    this.#lift = lift;
  }

  /** Whether the original still holds the key live (not deleted here). */
  #inBase(k: K): boolean {
    return this.#base.has(k) && !this.#dead?.has(k);
  }

  override get(k: K): V | undefined {
    if (super.has(k)) return super.get(k);
    if (!this.#inBase(k)) return undefined;
    const v = this.#base.get(k)!;
    if (typeof v !== 'object' || v === null) return v;
    const own = this.#lift!(v);
    super.set(k, own);
    return own;
  }

  override has(k: K): boolean {
    return super.has(k) || this.#inBase(k);
  }

  override set(k: K, v: V): this {
    if (!super.has(k) && !this.#inBase(k)) this.#added++;
    super.set(k, v);
    return this;
  }

  override delete(k: K): boolean {
    if (super.has(k)) {
      super.delete(k);
      if (this.#inBase(k)) this.#kill(k);
      else this.#added--;
      return true;
    }
    if (!this.#inBase(k)) return false;
    this.#kill(k);
    return true;
  }

  /** Marks a key of the original as deleted here. */
  #kill(k: K): void {
    if (this.#dead === null) this.#dead = new Set();
    this.#dead.add(k);
  }

  override clear(): void {
    super.clear();
    this.#base = new Map();
    this.#dead = null;
    this.#added = 0;
  }

  override get size(): number {
    return this.#base.size - (this.#dead?.size ?? 0) + this.#added;
  }

  override *entries(): MapIterator<[K, V]> {
    for (const k of this.#base.keys()) {
      if (this.#dead?.has(k)) continue;
      yield [k, this.get(k)!];
    }
    for (const [k, v] of super.entries()) if (!this.#inBase(k)) yield [k, v];
  }

  override [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries();
  }

  override *keys(): MapIterator<K> {
    for (const [k] of this.entries()) yield k;
  }

  override *values(): MapIterator<V> {
    for (const [, v] of this.entries()) yield v;
  }

  override forEach(fn: (value: V, key: K, map: Map<K, V>) => void, thisArg?: unknown): void {
    for (const [k, v] of this.entries()) fn.call(thisArg, v, k, this);
  }

  /** Whether the map still reads through to its original. */
  get attached(): boolean {
    return this.#lift !== null;
  }

  /** Copies everything still read from the original (lifting its object values), in order; then owns it all. */
  detach(): void {
    if (this.#lift === null) return;
    const all = [...this.entries()];
    super.clear();
    for (const [k, v] of all) super.set(k, v);
    this.#base = new Map();
    this.#dead = null;
    this.#added = all.length;
    this.#lift = null;
  }
}
