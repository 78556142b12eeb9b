// One lane of the embedding queue (queue.ts): facts or entities, their vectors and what is pending.
import { VectorSet } from './vectors.js';

/** One kind of item (facts, or entities) with its vectors and its pending list. */
export class Lane {
  vectors: VectorSet;
  /** A fresh set being filled by a full re-embedding; it replaces `vectors` once complete (see restart()). */
  private next: VectorSet | null = null;
  pending: number[] = [];
  private head = 0;
  constructor(
    dim: number,
    readonly text: (key: number) => string,
  ) {
    this.vectors = new VectorSet(dim);
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
  get filling(): VectorSet {
    return this.next ?? this.vectors;
  }

  /** Queues every key below n again, into a fresh set; searches keep using the current one meanwhile. */
  restart(n: number): void {
    // An unfinished pass restarted: its vectors are thrown away.
    this.next?.release();
    this.next = new VectorSet(this.vectors.dim);
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
