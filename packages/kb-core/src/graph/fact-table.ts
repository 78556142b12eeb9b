// Open-addressing hash table from (subject, predicate, object) entity/predicate indices to a fact index.
// A Map keyed by a composite number or string costs an allocation and more cache misses per lookup; this
// table is one Int32Array probed linearly. Each slot keeps the fact's hash next to its index, so probing past
// other facts does not touch the fact columns (three more cache misses each); they are read only to confirm
// a slot whose hash matches.
import type { I32Column } from './columns.js';
import { aheadOwner, askNextArray, forgetNextArray, takeNextArray, tableAskAt } from './next-arrays.js';

export class FactTable {
  /** Per slot: fact index + 1 (0 = empty), then the fact's hash. */
  private slots: Int32Array = new Int32Array(2 << 16);
  private mask = (1 << 16) - 1;
  private count = 0;
  private nextAt = tableAskAt(1 << 16);
  // The last (s, p, o) get() missed, its hash and the empty slot where it would go: the apply looks a fact up,
  // then adds it, and the add then neither hashes nor probes again unless the table grew or changed.
  private missS = -1;
  private missP = -1;
  private missO = -1;
  private missHash = 0;
  private missSlot = -1;

  constructor(
    private readonly factS: I32Column,
    private readonly factP: I32Column,
    private readonly factO: I32Column,
  ) {
    aheadOwner(this);
  }

  private static hash(s: number, p: number, o: number): number {
    let h = Math.imul(s, 0x9e3779b1) ^ Math.imul(o + 0x7f4a7c15, 0x85ebca77) ^ Math.imul(p + 1, 0xc2b2ae3d);
    h ^= h >>> 15;
    h = Math.imul(h, 0x2c1b3c6d);
    return h ^ (h >>> 12);
  }

  get(s: number, p: number, o: number): number | undefined {
    const slots = this.slots;
    const mask = this.mask;
    const h = FactTable.hash(s, p, o);
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const v = slots[2 * i]!;
      if (v === 0) {
        this.missS = s;
        this.missP = p;
        this.missO = o;
        this.missHash = h;
        this.missSlot = i;
        return undefined;
      }
      if (slots[2 * i + 1] === h) {
        const f = v - 1;
        if (this.factS.a[f] === s && this.factO.a[f] === o && this.factP.a[f] === p) return f;
      }
    }
  }

  /** Adds fact `f` (whose columns are already filled); the caller has checked it is absent. */
  add(f: number): void {
    const s = this.factS.a[f]!;
    const p = this.factP.a[f]!;
    const o = this.factO.a[f]!;
    if (this.count >= this.nextAt) this.askNext();
    const slot = this.missSlot;
    this.missSlot = -1;
    if (slot >= 0 && s === this.missS && p === this.missP && o === this.missO) {
      if ((this.count + 1) * 2 <= this.mask + 1) {
        this.slots[2 * slot] = f + 1;
        this.slots[2 * slot + 1] = this.missHash;
        this.count++;
        return;
      }
    }
    if ((this.count + 1) * 2 > this.mask + 1) this.grow();
    this.place(this.slots, this.mask, f + 1, FactTable.hash(s, p, o));
    this.count++;
  }

  /** The slots as they are, for a graph snapshot (graph-image.ts); the facts' columns must come with them. */
  exportSlots(): Int32Array {
    return this.slots;
  }

  /** Takes the slots of a snapshot whose fact columns (`count` facts) are loaded, into an empty table. */
  importSlots(slots: Int32Array<ArrayBuffer>, count: number): void {
    const size = slots.length >> 1;
    if (this.count !== 0 || size < 2 || (size & (size - 1)) !== 0 || count * 2 > size)
      throw new Error('fact table: not empty, or slots of a wrong size');
    this.slots = slots;
    this.mask = size - 1;
    this.count = count;
    this.missSlot = -1;
    this.nextAt = tableAskAt(size);
    forgetNextArray(this);
  }

  /** Asks for the slots the next growth will fill (grow() takes them). */
  private askNext(): void {
    askNextArray(this, 'i32', (this.mask + 1) * 4, 0);
    this.nextAt = 0x7fffffff;
  }

  private place(slots: Int32Array, mask: number, v: number, h: number): void {
    let i = h & mask;
    while (slots[2 * i] !== 0) i = (i + 1) & mask;
    slots[2 * i] = v;
    slots[2 * i + 1] = h;
  }

  private grow(): void {
    const old = this.slots;
    const size = (this.mask + 1) * 2;
    const ready = takeNextArray(this, size * 2);
    const slots = ready ? new Int32Array(ready) : new Int32Array(size * 2);
    const mask = size - 1;
    for (let i = 0; i < old.length; i += 2) if (old[i] !== 0) this.place(slots, mask, old[i]!, old[i + 1]!);
    this.slots = slots;
    this.mask = mask;
    this.nextAt = tableAskAt(size);
  }
}
