// One term's postings: the documents holding it, ascending, with the term's count in each, in growable typed
// arrays (a million-document index walks them without touching an object per posting). Kept sorted because
// the top-k walk (bm25-top.ts) moves through every query term's list in document order; documents arrive in
// order, so an append is the rule and an insertion (a claim's payload adding words to an older fact) the exception.
//
// Most terms of a knowledge base are rare (a gene name, an identifier: one to a few documents), so a short list
// takes its arrays as views of a shared slab (issue 37): an ArrayBuffer of its own per list cost ~90 bytes of heap
// object plus a malloc'd backing store each, two per term, i.e. ~25 MB for the 60,000 terms of 46,000 claims.
// A list that outgrows SLAB_MAX gets buffers of its own; the slab slots it leaves behind (< SLAB_MAX each) stay
// unused, like the unused half of a doubled array.

const SLAB_MAX = 32;
const SLAB_SIZE = 16_384;

/** Hands out short arrays as consecutive views of one larger buffer, a new buffer when the current one is full. */
class Slab<T extends Int32Array<ArrayBuffer> | Uint16Array<ArrayBuffer>> {
  private buf: T;
  private at = 0;
  constructor(private readonly make: (n: number) => T) {
    this.buf = make(SLAB_SIZE);
  }
  take(n: number): T {
    if (n > SLAB_MAX) return this.make(n);
    if (this.at + n > SLAB_SIZE) {
      this.buf = this.make(SLAB_SIZE);
      this.at = 0;
    }
    const view = this.buf.subarray(this.at, this.at + n) as T;
    this.at += n;
    return view;
  }
}

const docSlab = new Slab((n) => new Int32Array(n));
const tfSlab = new Slab((n) => new Uint16Array(n));

export class Postings {
  /** Empty, or (a BM25 state restored from disk: Bm25.importState) holding its first `length` entries already. */
  constructor(
    public docs: Int32Array<ArrayBuffer> = docSlab.take(4),
    public tfs: Uint16Array<ArrayBuffer> = tfSlab.take(4),
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
    const docs = docSlab.take(this.docs.length * 2);
    docs.set(this.docs);
    this.docs = docs;
    const tfs = tfSlab.take(this.tfs.length * 2);
    tfs.set(this.tfs);
    this.tfs = tfs;
  }
}
