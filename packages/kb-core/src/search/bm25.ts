// Okapi BM25 (Robertson & Zaragoza, "The Probabilistic Relevance Framework: BM25 and Beyond", 2009) over
// documents numbered densely from 0, fed one document at a time. Hand-written: the npm BM25 packages
// (wink-bm25-text-search and kin) index a corpus in one go and cannot add a document after consolidation,
// and the index must grow with every ingest. The top-k query is bm25-top.ts.
import { lowerBound, type PostingList, PostingStore } from './postings.js';

export const K1 = 1.2;
export const B = 0.75;

/** A BM25 index as flat arrays: the terms, each one's posting count, bounds, and postings end to end. */
export interface Bm25State {
  terms: string[];
  counts: Int32Array<ArrayBuffer>;
  max_tf: Int32Array<ArrayBuffer>;
  min_len: Float64Array<ArrayBuffer>;
  docs: Int32Array<ArrayBuffer>;
  tfs: Uint16Array<ArrayBuffer>;
  lengths: Int32Array<ArrayBuffer>;
  total_length: number;
}

export class Bm25 {
  /** Each term's number in `lists`. */
  private readonly terms = new Map<string, number>();
  private lists = new PostingStore();
  /** Token count per document (grown by doubling). */
  lengths = new Int32Array(1024);
  private docs = 0;
  private totalLength = 0;

  get docCount(): number {
    return this.docs;
  }

  get averageLength(): number {
    return this.docs === 0 ? 0 : this.totalLength / this.docs;
  }

  postings(term: string): PostingList | undefined {
    const t = this.terms.get(term);
    return t === undefined ? undefined : this.lists.list(t);
  }

  /** Number of documents holding the term. */
  df(term: string): number {
    const t = this.terms.get(term);
    return t === undefined ? 0 : this.lists.length(t);
  }

  /** Inverse document frequency, BM25's (with the +1 that keeps it positive). */
  idf(term: string): number {
    const n = this.docCount;
    const df = this.df(term);
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  /** A term's contribution to the score of a document of length `len` holding it `tf` times. */
  static contribution(idf: number, tf: number, len: number, avg: number): number {
    return (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * len) / avg));
  }

  /** The most a term can add to any document's score (its largest count in its shortest document). */
  upperBound(p: PostingList, idf: number): number {
    return Bm25.contribution(idf, p.maxTf, p.minLen, this.averageLength);
  }

  /** Adds document `doc` (the next number, or a gap filled with empty documents), or more words to it. */
  add(doc: number, tokens: readonly string[]): void {
    if (doc >= this.lengths.length) {
      const grown = new Int32Array(Math.max(doc + 1, this.lengths.length * 2));
      grown.set(this.lengths);
      this.lengths = grown;
    }
    if (doc >= this.docs) this.docs = doc + 1;
    const len = this.lengths[doc]! + tokens.length;
    this.lengths[doc] = len;
    this.totalLength += tokens.length;
    const tf = new Map<string, number>();
    for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
    for (const [t, n] of tf) {
      let id = this.terms.get(t);
      if (id === undefined) {
        id = this.lists.addTerm();
        this.terms.set(t, id);
      }
      this.lists.add(id, doc, n, len);
    }
  }

  /** Everything it holds, as a few flat arrays (search/persist.ts saves them beside the base). */
  exportState(): Bm25State {
    // Terms are numbered in the order they came, which is the map's order.
    const terms = [...this.terms.keys()];
    const lists = this.lists.exportArrays();
    const lengths = this.lengths.slice(0, this.docs);
    return { terms, ...lists, lengths, total_length: this.totalLength };
  }

  /** Replaces its contents with an exported state, whose arrays it then owns (PostingStore.fromArrays). */
  importState(st: Bm25State): void {
    const { terms, counts } = st;
    if (counts.length !== terms.length) throw new RangeError('bm25 state does not fit');
    this.lists = PostingStore.fromArrays(st);
    this.terms.clear();
    for (let i = 0; i < terms.length; i++) this.terms.set(terms[i]!, i);
    if (this.terms.size !== terms.length) throw new RangeError('bm25 state does not fit');
    this.docs = st.lengths.length;
    this.lengths = new Int32Array(Math.max(1024, this.docs));
    this.lengths.set(st.lengths);
    this.totalLength = st.total_length;
  }

  /** BM25 scores of the given documents (those holding no query term are left out). */
  scoreDocs(queryTokens: readonly string[], docs: Iterable<number>): Map<number, number> {
    const out = new Map<number, number>();
    const avg = this.averageLength;
    const terms = [...new Set(queryTokens)].flatMap((t) => {
      const p = this.postings(t);
      return p === undefined ? [] : [{ p, idf: this.idf(t) }];
    });
    for (const d of docs) {
      let s = 0;
      let held = false;
      for (const { p, idf } of terms) {
        const i = lowerBound(p.docs, d, p.start, p.end);
        if (i < p.end && p.docs[i] === d) {
          s += Bm25.contribution(idf, p.tfs[i]!, this.lengths[d]!, avg);
          held = true;
        }
      }
      if (held) out.set(d, s);
    }
    return out;
  }
}
