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
  abstract push(v: number): void;
}

export class I32Column extends Column<Int32Array> {
  constructor() {
    super(new Int32Array(1024));
  }
  // push is written out per class so that each call site and element store sees one array kind.
  push(v: number): void {
    if (this.n === this.a.length) {
      const b = new Int32Array(this.a.length * 2);
      b.set(this.a);
      this.a = b;
    }
    this.a[this.n++] = v;
  }
}

export class F64Column extends Column<Float64Array> {
  constructor() {
    super(new Float64Array(1024));
  }
  // push is written out per class so that each call site and element store sees one array kind.
  push(v: number): void {
    if (this.n === this.a.length) {
      const b = new Float64Array(this.a.length * 2);
      b.set(this.a);
      this.a = b;
    }
    this.a[this.n++] = v;
  }
}

export class U8Column extends Column<Uint8Array> {
  constructor() {
    super(new Uint8Array(1024));
  }
  // push is written out per class so that each call site and element store sees one array kind.
  push(v: number): void {
    if (this.n === this.a.length) {
      const b = new Uint8Array(this.a.length * 2);
      b.set(this.a);
      this.a = b;
    }
    this.a[this.n++] = v;
  }
}
