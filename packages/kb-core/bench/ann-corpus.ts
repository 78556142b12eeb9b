// The corpus the ANN profiling aids (search-ann.ts, ann-build-options.ts) share: the workload's fact texts, one per
// fact as the index holds them (a claim repeating a fact's triple adds no vector), embedded by the local embedder
// after it has learnt them all (as a catch-up does), and 300 queries of two kinds (entity-and-predicate words, and
// fact texts with one entity swapped).
import { LocalEmbedder } from '../src/embeddings/local.js';
import { tokenize } from '../src/model/tokenize.js';
import { predicateWords } from '../src/search/text.js';
import { claimBatches, entityCount } from './workload.js';

export interface AnnCorpus {
  texts: string[];
  dim: number;
  /** Vectors, `n` rows of `dim`. */
  n: number;
  all: Float32Array;
  /** Queries, `Q` rows of `dim`. */
  Q: number;
  queries: Float32Array;
}

/** The fact texts, one per fact, and their vectors (`n` rows of `dim`) from a local embedder that learnt them all. */
export function embeddedFactTexts(claims: number) {
  const seen = new Set<string>();
  const texts: string[] = [];
  for (const b of claimBatches(claims, 10000))
    for (const c of b) {
      const t = `${c.subject[0]} ${predicateWords(c.predicate[0])} ${c.object[0]}`;
      if (seen.has(t)) continue;
      texts.push(t);
      seen.add(t);
    }
  const emb = new LocalEmbedder();
  for (const t of texts) emb.learn(tokenize(t));
  const dim = emb.dim;
  const n = texts.length;
  const all = new Float32Array(n * dim);
  for (let i = 0; i < n; i++) all.set(emb.embedText(texts[i]!), i * dim);
  return { texts, emb, dim, n, all };
}

export function annCorpus(claims: number): AnnCorpus {
  const { texts, emb, dim, n, all } = embeddedFactTexts(claims);
  const Q = 300;
  const queries = new Float32Array(Q * dim);
  const E = entityCount(claims);
  for (let i = 0; i < Q; i++) {
    const q =
      i % 2 === 0 ? `E${(i * 7919) % E} inhibits` : texts[(i * 104729) % n]!.replace(/^E\d+/, `E${(i * 31) % E}`);
    queries.set(emb.embedText(q), i * dim);
  }
  return { texts, dim, n, all, Q, queries };
}
