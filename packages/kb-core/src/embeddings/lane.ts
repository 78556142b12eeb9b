// One lane of the embedding queue (queue.ts): facts or entities, their vectors and what is pending.
import { BinaryVectorSet } from './binary-set.js';
import { VectorSet } from './vectors.js';

/** A lane's vectors: HNSW (vectors.ts), or binary codes for the local embedder when asked (binary-set.ts). */
export type LaneVectors = VectorSet | BinaryVectorSet;

/**
 * `EVIDENT_LOCAL_VECTORS=binary`: the local embedder's lanes hold binary codes instead of HNSW. Off by default:
 * its catch-up costs about a fifth of HNSW's CPU (200,000 claims: 12.7-12.8 against 66.2-67.7 s), but a query
 * scans every code and re-ranks 2,000 exact rows: 2-3 ms of CPU at 41,666 vectors and about 10 ms at a million,
 * against 0.5-0.9 ms for HNSW's search up to 166,664 (docs/kb-performance.md, issue 41 point 2).
 */
export const binaryLocalVectors = (): boolean => process.env.EVIDENT_LOCAL_VECTORS === 'binary';

/** One kind of item (facts, or entities) with its vectors and its pending list. */
export class Lane {
  vectors: LaneVectors;
  /** A fresh set being filled by a full re-embedding; it replaces `vectors` once complete (see restart()). */
  private next: LaneVectors | null = null;
  pending: number[] = [];
  private head = 0;
  constructor(
    dim: number,
    readonly text: (key: number) => string,
    /** Binary codes instead of HNSW (binaryLocalVectors): measured on the local embedder's vectors only. */
    readonly binary = false,
  ) {
    this.vectors = this.make(dim);
  }
  private make(dim: number): LaneVectors {
    return this.binary ? new BinaryVectorSet(dim) : new VectorSet(dim);
  }
  get count(): number {
    return this.pending.length - this.head;
  }
  take(n: number): number[] {
    const out = this.pending.slice(this.head, this.head + n);
    this.head += out.length;
    if (this.head > 4096 && this.head * 2 > this.pending.length) {
      this.pending = this.pending.slice(this.head);
      this.head = 0;
    }
    return out;
  }
  /** Whether a full re-embedding is under way (see restart()). */
  get rebuilding(): boolean {
    return this.next !== null;
  }

  /** The set vectors go into now: the one a re-embedding fills, else the one searched (persist.ts saves it). */
  get filling(): LaneVectors {
    return this.next ?? this.vectors;
  }

  /** Queues every key below n again, into a fresh set; searches keep using the current one meanwhile. */
  restart(n: number): void {
    // An unfinished pass restarted: its vectors are thrown away.
    this.next?.release();
    this.next = this.make(this.vectors.dim);
    this.pending = Array.from({ length: n }, (_, i) => i);
    this.head = 0;
  }

  /** Stores computed vectors, row i of `rows` being keys[i]'s (into the set being rebuilt, if any; swapped in when nothing is pending). */
  store(keys: readonly number[], rows: Float32Array, threads = 1): void {
    (this.next ?? this.vectors).setMany(keys, rows, threads);
    if (this.next !== null && this.count === 0) {
      // The previous generation's vectors are searched no more: their native memory is freed now (release()).
      this.vectors.release();
      this.vectors = this.next;
      this.next = null;
    }
  }

  /** Forgets pending keys that have a vector (after vectors were loaded from disk). */
  dropIndexed(): void {
    this.pending = this.pending.slice(this.head).filter((k) => !this.vectors.has(k));
    this.head = 0;
  }
  /** Frees the vectors' native memory (the base closed; see VectorSet.release). */
  release(): void {
    this.vectors.release();
    this.next?.release();
    this.next = null;
  }
  putBack(keys: number[]): void {
    this.pending = [...keys, ...this.pending.slice(this.head)];
    this.head = 0;
  }
}
