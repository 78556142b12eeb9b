// What embeddingStatus() answers (queue.ts computes it).
import type { Lane } from './lane.js';
export interface EmbeddingStatus {
  provider: string;
  model: string;
  dim: number;
  indexed: number;
  pending: number;
  last_error: string | null;
  /** Share done of the work queued since nothing was last pending (facts to learn, vectors to compute); 1 when idle. */
  progress: number;
  /** Milliseconds until nothing is pending at the rate of that work so far; null when idle or too early to tell. */
  eta_ms: number | null;
  /**
   * The local lanes' second phase (two-tier, lane.ts): vectors whose HNSW entry is still to be built (searched
   * through their binary codes meanwhile, at full recall) and the share built; 0 and 1 with one tier. Not waited
   * for by embeddingsReady().
   */
  index_pending: number;
  index_progress: number;
}

/** The second phase of two-tier lanes (lane.ts): their HNSW, built after the vectors are searchable. */
export function indexStatus(lanes: readonly Lane[]): Pick<EmbeddingStatus, 'index_pending' | 'index_progress'> {
  let unbuilt = 0;
  let held = 0;
  for (const l of lanes) {
    unbuilt += l.unbuilt;
    held += l.vectors.size;
  }
  return { index_pending: unbuilt, index_progress: held === 0 ? 1 : 1 - unbuilt / held };
}
