// How the embedding queue (queue.ts) paces its work: slices of the event loop, batch sizes, backoff and waits.
/** Milliseconds of local work per slice before yielding to the event loop (ingests' continuations wait at most this). */
export const SLICE_MS = 8;
/** While a fact arrived less than BUSY_MS ago, slices are BUSY_PAUSE_MS apart (see pause()). */
export const BUSY_MS = 100;
/** A slice per BUSY_PAUSE_MS while the base is written to: background work takes a fifth of the event loop. */
export const BUSY_PAUSE_MS = 4 * SLICE_MS;
/** Texts per provider call (the providers batch further inside). */
export const PORT_BATCH = 64;
/** Texts per round trip to the shared vectors for the local embedder (about 10 ms of local embedding). */
export const SHARED_LOCAL_BATCH = 256;
/** Local vectors computed, then inserted into the ANN index in one call (well inside a slice), while ingesting. */
export const EMBED_BATCH = 16;
/** Catching up (no fact for BUSY_MS): larger calls, HNSW's inserts on both cores when one is spare (catchUpThreads). */
export const CATCH_UP_BATCH = 32;
export const MAX_BACKOFF_MS = 60_000;
/** A reservation in the shared vectors older than this is taken over (store/shared-vectors.ts). */
export const SHARED_LEASE_MS = 120_000;
/** Wait between asks for vectors another process is computing (doubling to MAX_WAIT_MS). */
export const MIN_WAIT_MS = 100;
export const MAX_WAIT_MS = 5_000;
/** Before this much of a catch-up has run, its rate says too little for an ETA. */
export const ETA_AFTER_MS = 500;
