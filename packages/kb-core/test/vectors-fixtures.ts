// Shared by the vector-set tests (binary codes, two tiers): seeded data and the reads they compare.
import type { ClaimInput, KbDB } from '../src/index.js';

/** xorshift32 in [0, 1): the test's data is the same at every run. */
export function seededRandom(seed: number): () => number {
  let x = seed;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

/**
 * `n` drug claims over 37 targets, a third of them `inhibits` a protein, the rest `treats` a disease; numbered from
 * `from` (compound, target and source alike).
 */
export const drugClaims = (n: number, from = 0): ClaimInput[] =>
  Array.from({ length: n }, (_, k) => ({
    subject: [`compound ${from + k}`, 'drug'],
    predicate: [k % 3 === 0 ? 'inhibits' : 'treats', 'pharmacology'],
    object: [`target ${(from + k) % 37}`, k % 3 === 0 ? 'protein' : 'disease'],
    provenance: { source_type: 'literature', source_id: `pmid:${from + k}` },
  }));

/** Each query's top 10 by meaning: claim ids and scores. */
export async function semanticAnswers(db: KbDB, queries: readonly string[]) {
  const out = [];
  for (const q of queries)
    out.push((await db.search(q, { k: 10, mode: 'semantic' })).results.map((h) => [h.claim.claim_id, h.score]));
  return out;
}
