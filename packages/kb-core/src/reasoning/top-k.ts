// The k smallest of a stream of (key, index) pairs, ordered by key then index: a binary max-heap of size k in
// typed arrays. Ranking a million candidates for a list of 20 or 100 then allocates nothing per candidate
// (a copy-and-sort of every key, or an array of a million indices, costs the garbage collector more than the
// ranking itself on a base whose heap already holds the index). Hand-written: a dozen lines, where a heap
// package would box each entry in an object.
export class TopK {
  private readonly keys: Float64Array;
  private readonly idx: Int32Array;
  private n = 0;

  constructor(readonly k: number) {
    this.keys = new Float64Array(Math.max(0, k));
    this.idx = new Int32Array(Math.max(0, k));
  }

  /** a ranks after b (larger key, or the same key and a larger index). */
  private after(ka: number, ia: number, kb: number, ib: number): boolean {
    return ka > kb || (ka === kb && ia > ib);
  }

  offer(key: number, index: number): void {
    const { keys, idx, k } = this;
    if (k <= 0) return;
    if (this.n < k) {
      // Sift up from the end.
      let i = this.n++;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!this.after(key, index, keys[p]!, idx[p]!)) break;
        keys[i] = keys[p]!;
        idx[i] = idx[p]!;
        i = p;
      }
      keys[i] = key;
      idx[i] = index;
      return;
    }
    if (!this.after(keys[0]!, idx[0]!, key, index)) return;
    // Replace the root (the worst kept) and sift down.
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= k) break;
      const r = l + 1;
      const c = r < k && this.after(keys[r]!, idx[r]!, keys[l]!, idx[l]!) ? r : l;
      if (!this.after(keys[c]!, idx[c]!, key, index)) break;
      keys[i] = keys[c]!;
      idx[i] = idx[c]!;
      i = c;
    }
    keys[i] = key;
    idx[i] = index;
  }

  /** The kept indices, best first (smallest key, then smallest index). */
  sorted(): number[] {
    const order = Array.from({ length: this.n }, (_, i) => i);
    order.sort((a, b) => this.keys[a]! - this.keys[b]! || this.idx[a]! - this.idx[b]!);
    return order.map((i) => this.idx[i]!);
  }
}
