// Vectors shared through the base (PostgreSQL: store/postgres/vectors.ts), so that of several
// processes on one base only one pays the provider for a text (or computes a local vector, per generation of
// the local embedder: queue.ts). Keyed by the embedder (provider, model,
// dimension) and a hash of the text embedded, not by fact number: a text is what the provider was paid for,
// and a fact whose text changes (a new synonym) needs a new vector anyway.
//
// Exactly-once by reservation: a process asks for the hashes it needs; those stored come back, those nobody
// has reserved become its own to compute (and to put, or release on failure), and those another process
// reserved are left to it: the asker waits and asks again. A reservation older than the lease is taken over
// (its process died or its provider hangs), so a crash delays vectors but never loses them.
import { createHash } from 'node:crypto';

export interface SharedVectors {
  /** Stored vectors for `hashes`, and which of the others this process now holds the reservation for. */
  claim(embedder: string, hashes: readonly string[], leaseMs: number): Promise<SharedClaim>;
  /** Stored vectors for `hashes` (no reservation). */
  find(embedder: string, hashes: readonly string[]): Promise<Map<string, Float32Array>>;
  /** Stores computed vectors (ending their reservations). */
  put(embedder: string, hashes: readonly string[], vectors: readonly Float32Array[]): Promise<void>;
  /** Drops reservations whose vectors were not computed (a failed provider call), for anyone to retry. */
  release(embedder: string, hashes: readonly string[]): Promise<void>;
  /** Drops every vector of an embedder (an old generation of the local embedder's). */
  drop(embedder: string): Promise<void>;
}

export interface SharedClaim {
  found: Map<string, Float32Array>;
  mine: Set<string>;
}

/** The hash a text's vector is kept under (SHA-256, base64). */
export function textHash(text: string): string {
  return createHash('sha256').update(text).digest('base64');
}
