// Open-addressing hash table from strings to non-negative int32 values, for the lookups every ingested
// claim makes with strings it has never seen as objects (raw entity names, source ids). A Map must first
// compute and store each fresh string's hash, then chase pointers to its entry and to the stored key; here
// the hash (FNV-1a over UTF-16 code units) and the key's characters live in typed arrays, so a lookup
// touches two or three cache lines and allocates nothing.

const EMPTY = 0;

export class StringTable {
  /** Per slot: entry index + 1 (0 = empty), then the key's hash. */
  private slots = new Int32Array(2 << 10);
  private mask = (1 << 10) - 1;
  private n = 0;
  /** Per entry: offset and length of the key in `chars`, and the value. */
  private keyAt = new Int32Array(256);
  private keyLen = new Int32Array(256);
  private values = new Int32Array(256);
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

  private slotOf(s: string, h: number): number {
    const slots = this.slots;
    const mask = this.mask;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const v = slots[2 * i]!;
      if (v === EMPTY) return -1 - i;
      if (slots[2 * i + 1] === h) {
        const k = v - 1;
        const len = this.keyLen[k]!;
        if (len === s.length) {
          const at = this.keyAt[k]!;
          const chars = this.chars;
          let j = 0;
          while (j < len && chars[at + j] === s.charCodeAt(j)) j++;
          if (j === len) return i;
        }
      }
    }
  }

  /** The value stored for `s`, or -1. */
  get(s: string): number {
    const i = this.slotOf(s, StringTable.hash(s));
    return i < 0 ? -1 : this.values[this.slots[2 * i]! - 1]!;
  }

  /** Stores `value` (≥ 0) for `s`, replacing any earlier value. */
  set(s: string, value: number): void {
    const h = StringTable.hash(s);
    let i = this.slotOf(s, h);
    if (i >= 0) {
      this.values[this.slots[2 * i]! - 1] = value;
      return;
    }
    if ((this.n + 1) * 2 > this.mask + 1) {
      this.grow();
      i = this.slotOf(s, h);
    }
    const k = this.n++;
    if (k === this.values.length) {
      this.keyAt = grown(this.keyAt, k * 2);
      this.keyLen = grown(this.keyLen, k * 2);
      this.values = grown(this.values, k * 2);
    }
    if (this.used + s.length > this.chars.length) {
      const c = new Uint16Array(Math.max(this.chars.length * 2, this.used + s.length));
      c.set(this.chars);
      this.chars = c;
    }
    const at = this.used;
    for (let j = 0; j < s.length; j++) this.chars[at + j] = s.charCodeAt(j);
    this.used += s.length;
    this.keyAt[k] = at;
    this.keyLen[k] = s.length;
    this.values[k] = value;
    const slot = -1 - i;
    this.slots[2 * slot] = k + 1;
    this.slots[2 * slot + 1] = h;
  }

  private grow(): void {
    const old = this.slots;
    const size = (this.mask + 1) * 2;
    this.slots = new Int32Array(size * 2);
    this.mask = size - 1;
    for (let i = 0; i < old.length; i += 2) {
      if (old[i] === EMPTY) continue;
      const h = old[i + 1]!;
      let j = h & this.mask;
      while (this.slots[2 * j] !== EMPTY) j = (j + 1) & this.mask;
      this.slots[2 * j] = old[i]!;
      this.slots[2 * j + 1] = h;
    }
  }
}

function grown(a: Int32Array<ArrayBuffer>, size: number): Int32Array<ArrayBuffer> {
  const b = new Int32Array(size);
  b.set(a);
  return b;
}
