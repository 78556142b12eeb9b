// Open-addressing hash table from strings to non-negative int32 values, for the lookups every ingested
// claim makes with strings it has never seen as objects (raw entity names, source ids). A Map must first
// compute and store each fresh string's hash, then chase pointers to its entry and to the stored key. Here a
// slot holds the key's hash (FNV-1a over UTF-16 code units), its length, the value and the key's first INLINE
// code units side by side in 32 bytes of one typed array, so a lookup of a short identifier ('BRCA1', 'E12345')
// touches one cache line and allocates nothing; only the units of longer keys past INLINE live in `tails`.
// (Measured on the benchmark's apply: 5-6% faster than keeping every key in a separate character array; 16
// inline units, in 48-byte slots that can straddle cache lines, gained less.)

import { aheadOwner, askNextArray, takeNextArray, tableAskAt } from './next-arrays.js';

/** UTF-16 code units kept in the slot, two per int32. */
const INLINE = 8;
/** Slot layout, STRIDE int32s: hash, key length + 1 (0 = empty), value, offset of the key's tail in `tails`, inline units. */
const STRIDE = 4 + INLINE / 2;

export class StringTable {
  private slots: Int32Array = new Int32Array(STRIDE << 10);
  private mask = (1 << 10) - 1;
  private n = 0;
  private nextAt = tableAskAt(1 << 10);
  private tails = new Uint16Array(1024);
  private used = 0;
  // The last key get() missed, its hash and the empty slot where it would go, while no key was added since: the
  // ingest looks a new name up, then adds it, and the add then neither hashes nor probes again.
  private missKey = '';
  private missHash = 0;
  private missAt = -1;

  constructor() {
    aheadOwner(this);
  }

  get size(): number {
    return this.n;
  }

  /** The hash a lookup of `s` uses (getHashed takes it, made once where a batch of lookups is prepared). */
  static hash(s: string): number {
    let h = 0x811c9dc5 | 0;
    for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
    return h ^ (h >>> 15);
  }

  /** Whether the key in the slot at `at` (whose length is s.length) is `s`. */
  private same(at: number, s: string): boolean {
    const slots = this.slots;
    const len = s.length;
    // A compare, not Math.min: per-lookup hot path, an int32 select in every tier
    const inline = len < INLINE ? len : INLINE;
    let j = 0;
    for (; j + 1 < inline; j += 2) {
      if (slots[at + 4 + (j >> 1)] !== (s.charCodeAt(j) | (s.charCodeAt(j + 1) << 16))) return false;
    }
    if (j < inline && slots[at + 4 + (j >> 1)] !== s.charCodeAt(j)) return false;
    if (len <= INLINE) return true;
    const tails = this.tails;
    const from = slots[at + 3]! - INLINE;
    for (j = INLINE; j < len; j++) if (tails[from + j] !== s.charCodeAt(j)) return false;
    return true;
  }

  /** Index (in int32s) of the slot holding `s`, or -1 - the index of the empty slot where it would go. */
  private find(s: string, h: number): number {
    const slots = this.slots;
    const mask = this.mask;
    const len1 = s.length + 1;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const at = i * STRIDE;
      const l = slots[at + 1]!;
      if (l === 0) return -1 - at;
      if (l === len1 && slots[at] === h && this.same(at, s)) return at;
    }
  }

  /** The value stored for `s`, or -1. */
  get(s: string): number {
    return this.getHashed(s, StringTable.hash(s));
  }

  /** get(s) with `h` = StringTable.hash(s). */
  getHashed(s: string, h: number): number {
    const at = this.find(s, h);
    if (at >= 0) return this.slots[at + 2]!;
    this.missKey = s;
    this.missHash = h;
    this.missAt = -1 - at;
    return -1;
  }

  /**
   * Reads the slot where a lookup of hash `h` starts, and returns a word of it. The result means nothing: a batch
   * of lookups reads its slots first, one after another, so that their cache misses are waited for together
   * rather than one lookup at a time (GraphState.applyRun).
   */
  peek(h: number): number {
    return this.slots[(h & this.mask) * STRIDE + 1]!;
  }

  /** Stores `value` (≥ 0) for `s`, replacing any earlier value. */
  set(s: string, value: number): void {
    let h: number;
    let at: number;
    if (this.missAt >= 0 && s === this.missKey) {
      h = this.missHash;
      at = -1 - this.missAt;
    } else {
      h = StringTable.hash(s);
      at = this.find(s, h);
      if (at >= 0) {
        this.slots[at + 2] = value;
        return;
      }
    }
    this.missAt = -1;
    if (this.n >= this.nextAt) {
      // The slots the next growth fills, made ready off this thread (next-arrays.ts); grow() takes them.
      askNextArray(this, 'i32', (this.mask + 1) * 2 * STRIDE, 0);
      this.nextAt = 0x7fffffff;
    }
    if ((this.n + 1) * 2 > this.mask + 1) {
      this.grow();
      at = this.find(s, h);
    }
    const slot = -1 - at;
    const slots = this.slots;
    const len = s.length;
    slots[slot] = h;
    slots[slot + 1] = len + 1;
    slots[slot + 2] = value;
    // A compare, not Math.min: per-lookup hot path, an int32 select in every tier
    const inline = len < INLINE ? len : INLINE;
    for (let j = 0; j < inline; j += 2) {
      slots[slot + 4 + (j >> 1)] = j + 1 < inline ? s.charCodeAt(j) | (s.charCodeAt(j + 1) << 16) : s.charCodeAt(j);
    }
    if (len > INLINE) {
      const tail = len - INLINE;
      if (this.used + tail > this.tails.length) {
        const t = new Uint16Array(Math.max(this.tails.length * 2, this.used + tail));
        t.set(this.tails);
        this.tails = t;
      }
      for (let j = INLINE; j < len; j++) this.tails[this.used + j - INLINE] = s.charCodeAt(j);
      slots[slot + 3] = this.used;
      this.used += tail;
    }
    this.n++;
  }

  /** Room for `n` keys without growing (a table filled at once: a graph snapshot's sources, graph-image-load.ts). */
  reserve(n: number): void {
    while ((n + 1) * 2 > this.mask + 1) this.grow();
  }

  private grow(): void {
    this.missAt = -1;
    const old = this.slots;
    const size = (this.mask + 1) * 2;
    const ready = takeNextArray(this, size * STRIDE);
    const slots = ready ? new Int32Array(ready) : new Int32Array(size * STRIDE);
    const mask = size - 1;
    rehash(old, slots, mask);
    this.slots = slots;
    this.mask = mask;
    this.nextAt = tableAskAt(size);
  }
}

/**
 * Every filled slot of `old` placed in `slots` (empty, mask + 1 slots). A function of its own: inside grow(), the
 * loop was compiled on stack, and each later growth entered that code with no feedback for the lines before the
 * loop, was deoptimised and ran the loop unoptimised again (23 times in a million-claim ingest, --trace-deopt).
 */
function rehash(old: Int32Array, slots: Int32Array, mask: number): void {
  for (let at = 0; at < old.length; at += STRIDE) {
    if (old[at + 1] === 0) continue;
    let i = old[at]! & mask;
    while (slots[i * STRIDE + 1] !== 0) i = (i + 1) & mask;
    const to = i * STRIDE;
    for (let k = 0; k < STRIDE; k++) slots[to + k] = old[at + k]!;
  }
}
