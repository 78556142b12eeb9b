// Growable typed-array columns. The index keeps its per-claim and per-fact numbers here rather than in JS
// arrays: no per-element tagging, half or less the memory, and nothing for the garbage collector to scan.
// `a` is replaced when the column grows, so read it through the owner's getter, never keep it.

type TypedArray = Int32Array | Float64Array | Uint8Array;

abstract class Column<T extends TypedArray> {
  a: T;
  n = 0;
  constructor(a: T) {
    this.a = a;
  }
  protected abstract alloc(size: number): T;
  push(v: number): void {
    if (this.n === this.a.length) {
      const b = this.alloc(this.a.length * 2);
      b.set(this.a as never);
      this.a = b;
    }
    this.a[this.n++] = v;
  }
}

export class I32Column extends Column<Int32Array> {
  constructor() {
    super(new Int32Array(1024));
  }
  protected alloc(size: number): Int32Array {
    return new Int32Array(size);
  }
}

export class F64Column extends Column<Float64Array> {
  constructor() {
    super(new Float64Array(1024));
  }
  protected alloc(size: number): Float64Array {
    return new Float64Array(size);
  }
}

export class U8Column extends Column<Uint8Array> {
  constructor() {
    super(new Uint8Array(1024));
  }
  protected alloc(size: number): Uint8Array {
    return new Uint8Array(size);
  }
}
