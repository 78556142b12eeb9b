// What embeddingStatus() answers (queue.ts computes it).
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
}
