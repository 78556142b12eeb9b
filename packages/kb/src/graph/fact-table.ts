// Open-addressing hash table from (subject, predicate, object) entity/predicate indices to a fact index.
// A Map keyed by a composite number or string costs an allocation and more cache misses per lookup; this
// table is one Int32Array probed linearly, comparing against the fact columns it indexes.
import type { I32Column } from './columns.js';

export class FactTable {
  private slots = new Int32Array(1 << 16); // fact index + 1; 0 = empty
  private mask = (1 << 16) - 1;
  private count = 0;

  constructor(
    private readonly factS: I32Column,
    private readonly factP: I32Column,
    private readonly factO: I32Column,
  ) {}

  private static hash(s: number, p: number, o: number): number {
    let h = Math.imul(s, 0x9e3779b1) ^ Math.imul(o + 0x7f4a7c15, 0x85ebca77) ^ Math.imul(p + 1, 0xc2b2ae3d);
    h ^= h >>> 15;
    h = Math.imul(h, 0x2c1b3c6d);
    return (h ^ (h >>> 12)) >>> 0;
  }

  get(s: number, p: number, o: number): number | undefined {
    const slots = this.slots;
    const mask = this.mask;
    const fs = this.factS.a;
    const fo = this.factO.a;
    const fp = this.factP.a;
    for (let i = FactTable.hash(s, p, o) & mask; ; i = (i + 1) & mask) {
      const v = slots[i]!;
      if (v === 0) return undefined;
      const f = v - 1;
      if (fs[f] === s && fo[f] === o && fp[f] === p) return f;
    }
  }

  /** Adds fact `f` (whose columns are already filled); the caller has checked it is absent. */
  add(f: number): void {
    if ((this.count + 1) * 2 > this.slots.length) this.grow();
    this.place(f);
    this.count++;
  }

  private place(f: number): void {
    const mask = this.mask;
    let i = FactTable.hash(this.factS.a[f]!, this.factP.a[f]!, this.factO.a[f]!) & mask;
    while (this.slots[i] !== 0) i = (i + 1) & mask;
    this.slots[i] = f + 1;
  }

  private grow(): void {
    const old = this.slots;
    this.slots = new Int32Array(old.length * 2);
    this.mask = this.slots.length - 1;
    for (let i = 0; i < old.length; i++) if (old[i] !== 0) this.place(old[i]! - 1);
  }
}
