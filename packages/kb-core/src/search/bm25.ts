// Okapi BM25 (Robertson & Zaragoza, "The Probabilistic Relevance Framework: BM25 and Beyond", 2009) over
// documents numbered densely from 0, fed one document at a time. Hand-written: the npm BM25 packages
// (wink-bm25-text-search and kin) index a corpus in one go and cannot add a document after consolidation,
// and the index must grow with every ingest.

const K1 = 1.2;
const B = 0.75;

interface Postings {
  docs: number[];
  tfs: number[];
}

export class Bm25 {
  private readonly terms = new Map<string, Postings>();
  private readonly lengths: number[] = [];
  private totalLength = 0;

  get docCount(): number {
    return this.lengths.length;
  }

  /** Number of documents holding the term. */
  df(term: string): number {
    return this.terms.get(term)?.docs.length ?? 0;
  }

  /** Inverse document frequency, BM25's (with the +1 that keeps it positive). */
  idf(term: string): number {
    const n = this.docCount;
    const df = this.df(term);
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  /** Adds document `doc` (the next number, or a gap filled with empty documents) with its tokens. */
  add(doc: number, tokens: readonly string[]): void {
    while (this.lengths.length <= doc) this.lengths.push(0);
    const tf = new Map<string, number>();
    for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
    for (const [t, n] of tf) {
      let p = this.terms.get(t);
      if (p === undefined) {
        p = { docs: [], tfs: [] };
        this.terms.set(t, p);
      }
      const last = p.docs.length - 1;
      if (last >= 0 && p.docs[last] === doc) p.tfs[last]! += n;
      else {
        p.docs.push(doc);
        p.tfs.push(n);
      }
    }
    this.lengths[doc]! += tokens.length;
    this.totalLength += tokens.length;
  }

  /**
   * Scores of every document holding a query term. Terms are taken once each; a query term held by more
   * than `maxDf` documents (a stop word of this corpus) still counts, its postings walked only to `maxDf`.
   */
  score(queryTokens: readonly string[], maxDf = Infinity): Map<number, number> {
    const out = new Map<number, number>();
    const n = this.docCount;
    if (n === 0) return out;
    const avg = this.totalLength / n;
    for (const t of new Set(queryTokens)) {
      const p = this.terms.get(t);
      if (p === undefined) continue;
      const idf = this.idf(t);
      const m = Math.min(p.docs.length, maxDf);
      for (let i = 0; i < m; i++) {
        const d = p.docs[i]!;
        const tf = p.tfs[i]!;
        const s = (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * this.lengths[d]!) / avg));
        out.set(d, (out.get(d) ?? 0) + s);
      }
    }
    return out;
  }
}
