// The k best (document, score) pairs seen, in a binary min-heap over two parallel typed arrays: O(log k) per
// candidate that beats the k-th score and no object per candidate, instead of collecting every candidate and
// sorting. Order: higher score first, then lower document number. Hand-written: the npm heaps (heap-js,
// tinyqueue) hold one object per element and keep no bound, and this is a few lines.

export class TopK {
  private readonly docs: Int32Array;
  private readonly scores: Float64Array;
  size = 0;

  constructor(readonly k: number) {
    this.docs = new Int32Array(k);
    this.scores = new Float64Array(k);
  }

  get full(): boolean {
    return this.size >= this.k;
  }

  /** Score of the k-th best so far (-Infinity until k are held): a candidate must beat it to enter. */
  get threshold(): number {
    return this.full ? this.scores[0]! : Number.NEGATIVE_INFINITY;
  }

  /** Whether (a, sa) ranks below (b, sb). */
  private worse(i: number, j: number): boolean {
    const si = this.scores[i]!;
    const sj = this.scores[j]!;
    return si < sj || (si === sj && this.docs[i]! > this.docs[j]!);
  }

  /** Offers a candidate; kept when fewer than k are held or it ranks above the worst held. */
  offer(doc: number, score: number): void {
    if (this.k <= 0) return;
    if (!this.full) {
      let i = this.size++;
      this.docs[i] = doc;
      this.scores[i] = score;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!this.worse(i, p)) break;
        this.swap(i, p);
        i = p;
      }
      return;
    }
    const s0 = this.scores[0]!;
    if (score < s0 || (score === s0 && doc > this.docs[0]!)) return;
    this.docs[0] = doc;
    this.scores[0] = score;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= this.size) break;
      const r = l + 1;
      const m = r < this.size && this.worse(r, l) ? r : l;
      if (!this.worse(m, i)) break;
      this.swap(i, m);
      i = m;
    }
  }

  private swap(i: number, j: number): void {
    const d = this.docs[i]!;
    this.docs[i] = this.docs[j]!;
    this.docs[j] = d;
    const s = this.scores[i]!;
    this.scores[i] = this.scores[j]!;
    this.scores[j] = s;
  }

  /** The held pairs, best first. */
  sorted(): [number, number][] {
    const out: [number, number][] = [];
    for (let i = 0; i < this.size; i++) out.push([this.docs[i]!, this.scores[i]!]);
    return out.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  }
}
