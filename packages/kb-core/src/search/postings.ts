// Every term's postings (the documents holding it, ascending, with the term's count in each) in a few flat typed
// arrays: a term is a number, its list a range of one chunk (issue 37). Kept sorted because the top-k walk
// (bm25-top.ts) moves through every query term's list in document order; documents arrive in order, so an
// append is the rule and an insertion (a claim's payload adding words to an older fact) the exception.
//
// Most terms of a knowledge base are rare (a gene name, an identifier: one to a few documents). An object per
// term holding two typed arrays of its own (or views of a slab) cost ~270 bytes of heap per term, ~15 MB for the
// 60,000 terms of 46,000 claims, where these arrays take ~30 bytes per term. A short list (up to SHARED_MAX) takes
// its range in a shared chunk; a longer one has a chunk of its own, replaced by one twice as large when full. A
// short list that outgrows its range moves to a new one twice as long; the range it leaves (< SHARED_MAX) stays
// unused, like the unused half of a doubled array.

const SHARED_MAX = 32;
const CHUNK = 16_384;
const FIRST = 4;

/** One term's list as a range [start, end) of a chunk's arrays, for a walk (bm25-top.ts). */
export interface PostingList {
  docs: Int32Array<ArrayBuffer>;
  tfs: Uint16Array<ArrayBuffer>;
  start: number;
  end: number;
  /** Largest count in one document, and shortest length of a document holding the term when it was added
   * (lengths only grow): together they bound the term's BM25 contribution (see Bm25.upperBound). */
  maxTf: number;
  minLen: number;
}

/** Lists as flat arrays: exportable as they are, end to end (Bm25.exportState). */
export interface PostingArrays {
  counts: Int32Array<ArrayBuffer>;
  max_tf: Int32Array<ArrayBuffer>;
  min_len: Float64Array<ArrayBuffer>;
  docs: Int32Array<ArrayBuffer>;
  tfs: Uint16Array<ArrayBuffer>;
}

const EMPTY_I32 = new Int32Array(0);
const EMPTY_U16 = new Uint16Array(0);

const grown = <T extends Int32Array<ArrayBuffer> | Float64Array<ArrayBuffer>>(a: T, make: (n: number) => T): T => {
  const b = make(a.length * 2);
  b.set(a);
  return b;
};

/** First position in [from, end) whose document is >= doc, else end (galloping, then binary search). */
export function lowerBound(docs: Int32Array, doc: number, from: number, end: number): number {
  if (from >= end || docs[from]! >= doc) return from;
  let step = 1;
  let lo = from;
  let hi = from + 1;
  while (hi < end && docs[hi]! < doc) {
    lo = hi;
    step *= 2;
    hi = from + step;
  }
  if (hi > end) hi = end;
  // docs[lo] < doc; docs[hi] >= doc or hi == end.
  while (lo + 1 < hi) {
    const mid = (lo + hi) >>> 1;
    if (docs[mid]! < doc) lo = mid;
    else hi = mid;
  }
  return hi;
}

export class PostingStore {
  /** Per term: its chunk, range start, length, capacity (0: nothing yet), and the two bounds. */
  private chunkOf: Int32Array<ArrayBuffer>;
  private startOf: Int32Array<ArrayBuffer>;
  private lenOf: Int32Array<ArrayBuffer>;
  private capOf: Int32Array<ArrayBuffer>;
  private maxTfOf: Int32Array<ArrayBuffer>;
  private minLenOf: Float64Array<ArrayBuffer>;
  private terms = 0;
  private readonly docChunks: Int32Array<ArrayBuffer>[] = [];
  private readonly tfChunks: Uint16Array<ArrayBuffer>[] = [];
  /** Per chunk: the term whose chunk it is, or -1 (shared by short lists, or an imported state's). */
  private readonly owner: number[] = [];
  /** The shared chunk short lists take their ranges from, and its first free position. */
  private open = -1;
  private openAt = CHUNK;

  constructor(capacity = 1024) {
    this.chunkOf = new Int32Array(capacity);
    this.startOf = new Int32Array(capacity);
    this.lenOf = new Int32Array(capacity);
    this.capOf = new Int32Array(capacity);
    this.maxTfOf = new Int32Array(capacity);
    this.minLenOf = new Float64Array(capacity).fill(Number.POSITIVE_INFINITY);
  }

  get size(): number {
    return this.terms;
  }

  /** A new, empty term; its number. */
  addTerm(): number {
    if (this.terms === this.lenOf.length) {
      const i32 = (n: number) => new Int32Array(n);
      this.chunkOf = grown(this.chunkOf, i32);
      this.startOf = grown(this.startOf, i32);
      this.lenOf = grown(this.lenOf, i32);
      this.capOf = grown(this.capOf, i32);
      this.maxTfOf = grown(this.maxTfOf, i32);
      const n = this.minLenOf.length;
      this.minLenOf = grown(this.minLenOf, (m) => new Float64Array(m));
      this.minLenOf.fill(Number.POSITIVE_INFINITY, n);
    }
    return this.terms++;
  }

  /** Number of documents holding the term. */
  length(term: number): number {
    return this.lenOf[term]!;
  }

  list(term: number): PostingList {
    const c = this.chunkOf[term]!;
    const start = this.startOf[term]!;
    return {
      docs: this.docChunks[c] ?? EMPTY_I32,
      tfs: this.tfChunks[c] ?? EMPTY_U16,
      start,
      end: start + this.lenOf[term]!,
      maxTf: this.maxTfOf[term]!,
      minLen: this.minLenOf[term]!,
    };
  }

  /** Adds `tf` occurrences of the term in `doc`, whose length is now `len`. */
  add(term: number, doc: number, tf: number, len: number): void {
    const n = this.lenOf[term]!;
    if (n === this.capOf[term]) this.grow(term);
    const docs = this.docChunks[this.chunkOf[term]!]!;
    const tfs = this.tfChunks[this.chunkOf[term]!]!;
    const start = this.startOf[term]!;
    const end = start + n;
    let i = end;
    if (n > 0 && docs[end - 1]! >= doc) i = lowerBound(docs, doc, start, end);
    if (i < end && docs[i] === doc) {
      tfs[i] = Math.min(0xffff, tfs[i]! + tf);
    } else {
      if (i < end) {
        docs.copyWithin(i + 1, i, end);
        tfs.copyWithin(i + 1, i, end);
      }
      docs[i] = doc;
      tfs[i] = Math.min(0xffff, tf);
      this.lenOf[term] = n + 1;
    }
    if (tfs[i]! > this.maxTfOf[term]!) this.maxTfOf[term] = tfs[i]!;
    if (len < this.minLenOf[term]!) this.minLenOf[term] = len;
  }

  /** Room for at least one more posting: a range twice as long (moved), or a chunk of its own twice as large. */
  private grow(term: number): void {
    const cap = this.capOf[term]!;
    const n = this.lenOf[term]!;
    const want = Math.max(FIRST, cap * 2);
    const from = this.chunkOf[term]!;
    const start = this.startOf[term]!;
    const oldDocs = this.docChunks[from];
    const oldTfs = this.tfChunks[from];
    let c: number;
    let at = 0;
    if (want <= SHARED_MAX) {
      if (this.openAt + want > CHUNK) {
        this.open = this.pushChunk(new Int32Array(CHUNK), new Uint16Array(CHUNK), -1);
        this.openAt = 0;
      }
      c = this.open;
      at = this.openAt;
      this.openAt += want;
    } else {
      // A chunk of its own: the one it had (if any) is replaced, so that memory is given back.
      c = cap > 0 && this.owner[from] === term ? from : this.pushChunk(EMPTY_I32, EMPTY_U16, term);
      this.docChunks[c] = new Int32Array(want);
      this.tfChunks[c] = new Uint16Array(want);
    }
    if (n > 0) {
      this.docChunks[c]!.set(oldDocs!.subarray(start, start + n), at);
      this.tfChunks[c]!.set(oldTfs!.subarray(start, start + n), at);
    }
    this.chunkOf[term] = c;
    this.startOf[term] = at;
    this.capOf[term] = want;
  }

  private pushChunk(docs: Int32Array<ArrayBuffer>, tfs: Uint16Array<ArrayBuffer>, owner: number): number {
    this.docChunks.push(docs);
    this.tfChunks.push(tfs);
    this.owner.push(owner);
    return this.docChunks.length - 1;
  }

  /** The lists end to end, in term order, with their bounds. */
  exportArrays(): PostingArrays {
    const n = this.terms;
    let total = 0;
    for (let t = 0; t < n; t++) total += this.lenOf[t]!;
    const docs = new Int32Array(total);
    const tfs = new Uint16Array(total);
    let at = 0;
    for (let t = 0; t < n; t++) {
      const len = this.lenOf[t]!;
      if (len === 0) continue;
      const s = this.startOf[t]!;
      docs.set(this.docChunks[this.chunkOf[t]!]!.subarray(s, s + len), at);
      tfs.set(this.tfChunks[this.chunkOf[t]!]!.subarray(s, s + len), at);
      at += len;
    }
    return {
      counts: this.lenOf.slice(0, n),
      max_tf: this.maxTfOf.slice(0, n),
      min_len: this.minLenOf.slice(0, n),
      docs,
      tfs,
    };
  }

  /** Replaces its lists with exported ones, whose arrays it then owns: each term's range is exactly full, so a
   * new document for a term moves its list (grow) rather than overrun the next one. */
  static fromArrays(st: PostingArrays): PostingStore {
    const { counts, docs, tfs } = st;
    const n = counts.length;
    if (st.max_tf.length !== n || st.min_len.length !== n || docs.length !== tfs.length)
      throw new RangeError('bm25 state does not fit');
    const out = new PostingStore(Math.max(1024, n));
    out.pushChunk(docs, tfs, -1);
    let at = 0;
    for (let t = 0; t < n; t++) {
      const len = counts[t]!;
      if (len < 0) throw new RangeError('bm25 state does not fit');
      out.startOf[t] = at;
      out.lenOf[t] = len;
      out.capOf[t] = len;
      out.maxTfOf[t] = st.max_tf[t]!;
      out.minLenOf[t] = st.min_len[t]!;
      at += len;
    }
    if (at !== docs.length) throw new RangeError('bm25 state does not fit');
    out.terms = n;
    return out;
  }
}
