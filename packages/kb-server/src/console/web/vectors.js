// @ts-check
// The health panel's vectors line (issue 41): kb-core's embeddingStatus() (GET /embeddings/status) in words.
// Plain and DOM-free, so that the tests run it in Node (vectors.d.ts).

/** @param {number} ms */
export function duration(ms) {
  const s = Math.ceil(ms / 1000);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.ceil(s / 60)} min`;
  return `${(s / 3600).toFixed(1)} h`;
}

/**
 * @param {{ indexed: number, pending: number, progress: number, eta_ms: number | null,
 *   last_error: string | null } | null} st
 */
export function vectorsText(st) {
  if (st === null) return 'Vectors off (lexical search only)';
  const indexed = `${st.indexed.toLocaleString('en-US')} vectors`;
  const error = st.last_error ? `; last error: ${st.last_error}` : '';
  if (st.pending === 0) return `${indexed}, none pending${error}`;
  const eta = st.eta_ms === null ? '' : `, about ${duration(st.eta_ms)} left`;
  const done = Math.min(100, Math.floor(st.progress * 100));
  return `${indexed}, ${st.pending.toLocaleString('en-US')} pending (${done}% done${eta})${error}`;
}
