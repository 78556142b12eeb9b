// The k best documents for a query under BM25 (bm25.ts), without scoring every document that holds a query
// word: document-at-a-time MaxScore (Turtle & Flood, "Query evaluation: strategies and optimizations", 1995;
// as described by Tonellotto, Macdonald & Ounis, "Efficient Query Processing for Scalable Web Search", 2018).
// Each term's largest possible contribution is known (Bm25.upperBound). Once k documents are held, the terms
// whose bounds together cannot lift a document above the k-th score are "non-essential": their postings are
// no longer walked, only probed (galloping) for documents the other terms found, and the probing stops as soon
// as the bounds left cannot change the outcome. Exact, with one documented exception:
//
// Common terms. A query term held by more than a tenth of the documents (and by more than COMMON_MIN_DF: small
// bases stay exact) adds to the score of every document the other query terms find, but does not make a document
// a candidate by itself, unless every query term is common. Such a term's idf is low (under ln 10), and without
// this rule a query with fewer than k strong matches would walk its whole list (in the KB benchmark, the family
// stem `e` of the names `E12`, `E7`... is in every fact) to rank documents that hold nothing but it.
import { Bm25 } from './bm25.js';
import { lowerBound, type PostingList } from './postings.js';
import { TopK } from './topk.js';

// Deliberate likeness: named constants, which the duplicates tool pairs by shape with other files' constant runs
// (compound-generation's optimize/graph-operators.ts); the values are unrelated, nothing to share.
const COMMON_FRACTION = 0.1;
const COMMON_MIN_DF = 4096;

interface Cursor {
  p: PostingList;
  idf: number;
  ub: number;
  pos: number;
}

/**
 * The k best documents holding a query term that `accept` admits (asked only of documents that would enter the
 * top k), best first, with their scores. Ties go to the lower document number.
 */
export function topDocs(
  bm: Bm25,
  queryTokens: readonly string[],
  k: number,
  accept: (doc: number) => boolean = () => true,
): [number, number][] {
  const n = bm.docCount;
  if (n === 0 || k <= 0) return [];
  const cursors: Cursor[] = [];
  for (const t of new Set(queryTokens)) {
    const p = bm.postings(t);
    if (p === undefined || p.end === p.start) continue;
    const idf = bm.idf(t);
    cursors.push({ p, idf, ub: bm.upperBound(p, idf), pos: p.start });
  }
  const commonDf = Math.max(COMMON_MIN_DF, n * COMMON_FRACTION);
  const df = (c: Cursor) => c.p.end - c.p.start;
  let gen = cursors.filter((c) => df(c) <= commonDf);
  let common = cursors.filter((c) => df(c) > commonDf);
  if (gen.length === 0) {
    gen = common;
    common = [];
  }
  // Generating terms by bound ascending: the first `split` of them are non-essential.
  gen.sort((a, b) => a.ub - b.ub);
  const commonUb = common.reduce((s, c) => s + c.ub, 0);
  /** prefix[i]: commonUb + bounds of gen[0..i-1]. */
  const prefix = [commonUb];
  for (const c of gen) prefix.push(prefix[prefix.length - 1]! + c.ub);
  // Probing order for the non-essential terms: largest bound first, common terms last.
  const top = new TopK(k);
  const lengths = bm.lengths;
  const avg = bm.averageLength;
  let split = 0;
  for (;;) {
    let d = 0x7fffffff;
    for (let i = split; i < gen.length; i++) {
      const c = gen[i]!;
      if (c.pos < c.p.end && c.p.docs[c.pos]! < d) d = c.p.docs[c.pos]!;
    }
    if (d === 0x7fffffff) break;
    const len = lengths[d]!;
    let score = 0;
    for (let i = split; i < gen.length; i++) {
      const c = gen[i]!;
      if (c.pos < c.p.end && c.p.docs[c.pos] === d) {
        score += Bm25.contribution(c.idf, c.p.tfs[c.pos]!, len, avg);
        c.pos++;
      }
    }
    const threshold = top.threshold;
    // Non-essential terms, largest bound first, while what they could add still matters.
    let left = prefix[split]!;
    for (let i = split - 1; i >= -common.length && score + left > threshold; i--) {
      const c = i >= 0 ? gen[i]! : common[-i - 1]!;
      c.pos = lowerBound(c.p.docs, d, c.pos, c.p.end);
      if (c.pos < c.p.end && c.p.docs[c.pos] === d) score += Bm25.contribution(c.idf, c.p.tfs[c.pos]!, len, avg);
      left -= c.ub;
    }
    if (score > threshold && accept(d)) {
      top.offer(d, score);
      if (top.full) {
        const t = top.threshold;
        while (split < gen.length && prefix[split + 1]! <= t) split++;
      }
    }
  }
  return top.sorted();
}
