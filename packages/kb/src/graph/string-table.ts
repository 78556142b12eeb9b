// Open-addressing hash table from strings to non-negative int32 values, for the lookups every ingested
// claim makes with strings it has never seen as objects (raw entity names, source ids). A Map must first
// compute and store each fresh string's hash, then chase pointers to its entry and to the stored key; here
// each slot holds the key's hash (FNV-1a over UTF-16 code units), where its characters are, its length and
// the value, side by side in one typed array, so a lookup touches the slot's cache line and the key's
// characters, and allocates nothing.

/** Slot layout, STRIDE int32s each: hash, offset of the key in `chars`, key length + 1 (0 = empty), value. */
const STRIDE = 4;

export class StringTable {
  private slots = new Int32Array(STRIDE << 10);
  private mask = (1 << 10) - 1;
  private n = 0;
  private chars = new Uint16Array(4096);
  private used = 0;

  get size(): number {
    return this.n;
  }

  private static hash(s: string): number {
    let h = 0x811c9dc5 | 0;
    for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
    return h ^ (h >>> 15);
  }

  /** Index (in int32s) of the slot holding `s`, or -1 - the index of the empty slot where it would go. */
  private find(s: string, h: number): number {
    const slots = this.slots;
    const mask = this.mask;
    const len = s.length;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const at = i * STRIDE;
      const len1 = slots[at + 2]!;
      if (len1 === 0) return -1 - at;
      if (slots[at] === h && len1 === len + 1) {
        const from = slots[at + 1]!;
        const chars = this.chars;
        let j = 0;
        while (j < len && chars[from + j] === s.charCodeAt(j)) j++;
        if (j === len) return at;
      }
    }
  }

  /** The value stored for `s`, or -1. */
  get(s: string): number {
    const at = this.find(s, StringTable.hash(s));
    return at < 0 ? -1 : this.slots[at + 3]!;
  }

  /** Stores `value` (≥ 0) for `s`, replacing any earlier value. */
  set(s: string, value: number): void {
    const h = StringTable.hash(s);
    let at = this.find(s, h);
    if (at >= 0) {
      this.slots[at + 3] = value;
      return;
    }
    if ((this.n + 1) * 2 > this.mask + 1) {
      this.grow();
      at = this.find(s, h);
    }
    if (this.used + s.length > this.chars.length) {
      const c = new Uint16Array(Math.max(this.chars.length * 2, this.used + s.length));
      c.set(this.chars);
      this.chars = c;
    }
    const from = this.used;
    for (let j = 0; j < s.length; j++) this.chars[from + j] = s.charCodeAt(j);
    this.used += s.length;
    const slot = -1 - at;
    this.slots[slot] = h;
    this.slots[slot + 1] = from;
    this.slots[slot + 2] = s.length + 1;
    this.slots[slot + 3] = value;
    this.n++;
  }

  private grow(): void {
    const old = this.slots;
    const size = (this.mask + 1) * 2;
    const slots = new Int32Array(size * STRIDE);
    const mask = size - 1;
    for (let at = 0; at < old.length; at += STRIDE) {
      if (old[at + 2] === 0) continue;
      let i = old[at]! & mask;
      while (slots[i * STRIDE + 2] !== 0) i = (i + 1) & mask;
      for (let k = 0; k < STRIDE; k++) slots[i * STRIDE + k] = old[at + k]!;
    }
    this.slots = slots;
    this.mask = mask;
  }
}
