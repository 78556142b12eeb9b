// Growable typed-array columns. The index keeps its per-claim and per-fact numbers here rather than in JS
// arrays: no per-element tagging, half or less the memory, and nothing for the garbage collector to scan.
// `a` is replaced when the column grows, so read it through the owner's getter, never keep it.
// (A what-if copy's `a` may be a copy-on-write array, cow-array.ts: growing copies its rows through copyRows.)
import { copyRows, growInPlace } from './cow-array.js';

type TypedArray = Int32Array | Float64Array | Uint8Array;

abstract class Column<T extends TypedArray> {
  a: T;
  n = 0;
  /**
   * `fill`: the value of every slot not written yet. A column whose new rows start at a constant (a status, a
   * list end) is then reserved rather than pushed: growing fills the new slots once, and a row costs nothing.
   */
  constructor(
    a: T,
    readonly fill: number,
  ) {
    this.a = a;
    if (fill !== 0) a.fill(fill);
  }
  abstract push(v: number): void;
  /** Makes slots 0..size-1 exist (new ones hold `fill`); `n` is left to the owner. */
  abstract reserve(size: number): void;
}

export class I32Column extends Column<Int32Array> {
  constructor(fill = 0) {
    super(new Int32Array(1024), fill);
  }
  // push and reserve are written out per class so that each call site and element store sees one array kind.
  push(v: number): void {
    if (this.n === this.a.length) this.reserve(this.n + 1);
    this.a[this.n++] = v;
  }
  reserve(size: number): void {
    const old = this.a;
    if (size <= old.length || growInPlace(old, Math.max(size, old.length * 2), this.fill)) return;
    const b = new Int32Array(Math.max(size, old.length * 2));
    copyRows(b, old);
    if (this.fill !== 0) b.fill(this.fill, old.length);
    this.a = b;
  }
}

export class F64Column extends Column<Float64Array> {
  constructor(fill = 0) {
    super(new Float64Array(1024), fill);
  }
  // push and reserve are written out per class so that each call site and element store sees one array kind.
  push(v: number): void {
    if (this.n === this.a.length) this.reserve(this.n + 1);
    this.a[this.n++] = v;
  }
  reserve(size: number): void {
    const old = this.a;
    if (size <= old.length || growInPlace(old, Math.max(size, old.length * 2), this.fill)) return;
    const b = new Float64Array(Math.max(size, old.length * 2));
    copyRows(b, old);
    if (this.fill !== 0) b.fill(this.fill, old.length);
    this.a = b;
  }
}

export class U8Column extends Column<Uint8Array> {
  constructor(fill = 0) {
    super(new Uint8Array(1024), fill);
  }
  // push and reserve are written out per class so that each call site and element store sees one array kind.
  push(v: number): void {
    if (this.n === this.a.length) this.reserve(this.n + 1);
    this.a[this.n++] = v;
  }
  reserve(size: number): void {
    const old = this.a;
    if (size <= old.length || growInPlace(old, Math.max(size, old.length * 2), this.fill)) return;
    const b = new Uint8Array(Math.max(size, old.length * 2));
    copyRows(b, old);
    if (this.fill !== 0) b.fill(this.fill, old.length);
    this.a = b;
  }
}
