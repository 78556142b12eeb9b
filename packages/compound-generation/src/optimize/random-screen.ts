// PMO's screening baseline: molecules of the pool in a random order (seeded), scored in batches of 100 until the
// budget or the pool is spent.
import type { Random } from '../generation/prng.js';
import type { Search } from './search.js';
import type { OptimizeStopReason } from './types.js';

const BATCH = 100;

export async function runRandomScreen(
  search: Search,
  pool: readonly string[],
  rng: Random,
): Promise<OptimizeStopReason> {
  const order = pool.map((_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  let next = 0;
  while (!search.exhausted) {
    await search.checkpoint();
    if (next >= order.length) return 'pool_exhausted';
    const batch: string[] = [];
    // Enough new molecules to fill the batch (or the rest of the budget) despite invalid ones and repeats.
    const want = Math.min(BATCH, search.oracle.remaining);
    while (batch.length < want && next < order.length) {
      const c = search.canonical(pool[order[next++]!]!);
      if (c && !search.seen(c) && search.admits(c) && !batch.includes(c)) batch.push(c);
    }
    await search.score(batch);
  }
  return 'budget_exhausted';
}
