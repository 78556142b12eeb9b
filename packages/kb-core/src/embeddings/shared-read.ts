// A whatIf view's use of the shared vectors (queue.ts, markHypothetical): it reads what the base stores and
// computes the rest itself, but never writes, reserves or drops anything (its local vectors are its own).
import type { SharedVectors } from '../store/shared-vectors.js';

/** Shared vectors to read only: stored ones are found, every other one is this process's to compute and keep. */
export function readOnly(shared: SharedVectors): SharedVectors {
  return {
    claim: async (embedder, hashes) => {
      const found = await shared.find(embedder, hashes);
      return { found, mine: new Set(hashes.filter((h) => !found.has(h))) };
    },
    find: (embedder, hashes) => shared.find(embedder, hashes),
    put: async () => undefined,
    release: async () => undefined,
    drop: async () => undefined,
  };
}
