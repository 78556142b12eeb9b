// Growable typed-array columns. The index keeps its per-claim and per-fact numbers here rather than in JS
// arrays: no per-element tagging, half or less the memory, and nothing for the garbage collector to scan.
// `a` is replaced when the column grows, so read it through the owner's getter, never keep it.
// (A what-if copy's `a` may be a copy-on-write array, cow-array.ts: growing copies its rows through copyRows.)
// A large column three quarters full asks for its next array (twice its length) to be made ready on a helper thread
// (@evident/worker-threads' ready memory), so that growing it copies into pages already faulted in rather than
// faulting in every page of the new array on the thread that ingests.
import type { ReadyKind } from '@evident/worker-threads';
import { copyRows, growInPlace } from './cow-array.js';
import { aheadOwner, askNextArray, forgetNextArray, takeNextArray } from './next-arrays.js';

type TypedArray = Int32Array | Float64Array | Uint8Array;

abstract class Column<T extends TypedArray> {
  a: T;
  n = 0;
  /**
   * Rows below `limit` exist; a writer at it calls reserve(), which grows the column (at its length) or asks for
   * its next array (at three quarters). Callers compare with `limit`, not `a.length`, so that the early call is made.
   */
  limit: number;
  /**
   * `fill`: the value of every slot not written yet. A column whose new rows start at a constant (a status, a
   * list end) is then reserved rather than pushed: growing fills the new slots once, and a row costs nothing.
   */
  constructor(
    a: T,
    readonly fill: number,
  ) {
    this.a = a;
    this.limit = a.length;
    if (fill !== 0) a.fill(fill);
    aheadOwner(this);
  }
  abstract push(v: number): void;
  protected abstract readonly kind: ReadyKind;
  /** A new array of `length` elements, zero-filled. */
  protected abstract make(length: number): T;
  /** The column's kind of array over a ready buffer. */
  protected abstract over(buffer: SharedArrayBuffer): T;

  /** Makes slots 0..size-1 exist (new ones hold `fill`); `n` is left to the owner. */
  reserve(size: number): void {
    if (size <= this.limit) return;
    const old = this.a;
    if (size > old.length) {
      const length = Math.max(size, old.length * 2);
      if (!growInPlace(old, length, this.fill)) this.a = this.grown(old, length);
    }
    // Not at half: a column just doubled is half full, and its next array would be held for the whole second half.
    const length = this.a.length;
    const early = length - (length >>> 2);
    if (size > early) {
      askNextArray(this, this.kind, length * 2, this.fill);
      this.limit = length;
    } else {
      this.limit = early;
    }
  }

  /** Takes `a` (holding `n` rows) as the column's array: a column loaded whole (graph-image-load.ts). */
  adopt(a: T, n: number): void {
    forgetNextArray(this);
    this.a = a;
    this.n = n;
    this.limit = a.length;
  }

  private grown(old: T, length: number): T {
    const ready = takeNextArray(this, length);
    const b = ready ? this.over(ready) : this.make(length);
    copyRows(b, old);
    if (!ready && this.fill !== 0) b.fill(this.fill, old.length);
    return b;
  }
}

export class I32Column extends Column<Int32Array> {
  protected readonly kind = 'i32';
  constructor(fill = 0) {
    super(new Int32Array(1024), fill);
  }
  protected make(length: number): Int32Array {
    return new Int32Array(length);
  }
  protected over(buffer: SharedArrayBuffer): Int32Array {
    return new Int32Array(buffer);
  }
  // push is written out per class so that each call site and element store sees one array kind.
  push(v: number): void {
    if (this.n === this.limit) this.reserve(this.n + 1);
    this.a[this.n++] = v;
  }
}

export class F64Column extends Column<Float64Array> {
  protected readonly kind = 'f64';
  constructor(fill = 0) {
    super(new Float64Array(1024), fill);
  }
  protected make(length: number): Float64Array {
    return new Float64Array(length);
  }
  protected over(buffer: SharedArrayBuffer): Float64Array {
    return new Float64Array(buffer);
  }
  // push is written out per class so that each call site and element store sees one array kind.
  push(v: number): void {
    if (this.n === this.limit) this.reserve(this.n + 1);
    this.a[this.n++] = v;
  }
}

export class U8Column extends Column<Uint8Array> {
  protected readonly kind = 'u8';
  constructor(fill = 0) {
    super(new Uint8Array(1024), fill);
  }
  protected make(length: number): Uint8Array {
    return new Uint8Array(length);
  }
  protected over(buffer: SharedArrayBuffer): Uint8Array {
    return new Uint8Array(buffer);
  }
  // push is written out per class so that each call site and element store sees one array kind.
  push(v: number): void {
    if (this.n === this.limit) this.reserve(this.n + 1);
    this.a[this.n++] = v;
  }
}
