// The default starting pool: a random 20,000-molecule subset of ZINC-250k, the set PMO's Graph GA starts from
// and its screening baseline screens (data/zinc250k-subset.smi.gz; source and licence in DATA_SOURCES.md).
import { readDataText } from '../data.js';

let cached: readonly string[] | undefined;

export function defaultPool(): readonly string[] {
  cached ??= readDataText('zinc250k-subset.smi.gz')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
  return cached;
}
