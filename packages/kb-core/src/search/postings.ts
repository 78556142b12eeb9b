// One term's postings: the documents holding it, ascending, with the term's count in each, in growable typed
// arrays (a million-document index walks them without touching an object per posting). Kept sorted because
// the top-k walk (bm25-top.ts) moves through every query term's list in document order; documents arrive in
// order, so an append is the rule and an insertion (a claim's payload adding words to an older fact) the exception.

export class Postings {
  /** Empty, or (a BM25 state restored from disk: Bm25.importState) holding its first `length` entries already. */
  constructor(
    public docs = new Int32Array(4),
    public tfs = new Uint16Array(4),
    public length = 0,
  ) {}
  /** Largest count in one document, and shortest length of a document holding the term when it was added
   * (lengths only grow): together they bound the term's BM25 contribution (see Bm25.upperBound). */
  maxTf = 0;
  minLen = Number.POSITIVE_INFINITY;

  /** Adds `tf` occurrences in `doc`, whose length is now `len`. */
  add(doc: number, tf: number, len: number): void {
    const n = this.length;
    let i = n;
    if (n > 0 && this.docs[n - 1]! >= doc) i = this.lowerBound(doc, 0);
    if (i < n && this.docs[i] === doc) {
      this.tfs[i] = Math.min(0xffff, this.tfs[i]! + tf);
    } else {
      if (n === this.docs.length) this.grow();
      if (i < n) {
        this.docs.copyWithin(i + 1, i, n);
        this.tfs.copyWithin(i + 1, i, n);
      }
      this.docs[i] = doc;
      this.tfs[i] = Math.min(0xffff, tf);
      this.length = n + 1;
    }
    if (this.tfs[i]! > this.maxTf) this.maxTf = this.tfs[i]!;
    if (len < this.minLen) this.minLen = len;
  }

  /** First position at or after `from` whose document is >= doc (galloping, then binary search). */
  lowerBound(doc: number, from: number): number {
    const docs = this.docs;
    const n = this.length;
    if (from >= n || docs[from]! >= doc) return from;
    let step = 1;
    let lo = from;
    let hi = from + 1;
    while (hi < n && docs[hi]! < doc) {
      lo = hi;
      step *= 2;
      hi = from + step;
    }
    if (hi > n) hi = n;
    // docs[lo] < doc; docs[hi] >= doc or hi == n.
    while (lo + 1 < hi) {
      const mid = (lo + hi) >>> 1;
      if (docs[mid]! < doc) lo = mid;
      else hi = mid;
    }
    return hi;
  }

  private grow(): void {
    const docs = new Int32Array(this.docs.length * 2);
    docs.set(this.docs);
    this.docs = docs;
    const tfs = new Uint16Array(this.tfs.length * 2);
    tfs.set(this.tfs);
    this.tfs = tfs;
  }
}
