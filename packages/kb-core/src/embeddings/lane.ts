// One lane of the embedding queue (queue.ts): facts or entities, their vectors and what is pending.
import { BinaryVectorSet } from './binary-set.js';
import { TwoTierVectorSet } from './two-tier.js';
import { catchUpThreads, VectorSet } from './vectors.js';

/** A lane's vectors: HNSW (vectors.ts), binary codes (binary-set.ts), or both tiers (two-tier.ts). */
export type LaneVectors = VectorSet | BinaryVectorSet | TwoTierVectorSet;

/** How a lane holds its vectors: see localVectors(). */
export type LaneKind = 'hnsw' | 'binary' | 'two-tier';

/**
 * The local embedder's lanes: two tiers by default (two-tier.ts: binary codes for every vector at once, so the
 * catch-up settles at about a fifth of HNSW's CPU, then HNSW built in the background for HNSW's query latency).
 * `EVIDENT_LOCAL_VECTORS=hnsw`: HNSW alone (the catch-up inserts every vector: ~310 µs each); `=binary`: the codes
 * alone (a query scans every code: 3.3 ms of CPU at 166,664 vectors, 8-12 ms at a million, against HNSW's ~1 ms).
 * Measured in docs/kb-performance.md (issue 41 point 2). A provider's lanes are HNSW alone.
 */
export function localVectors(): LaneKind {
  const v = process.env.EVIDENT_LOCAL_VECTORS;
  return v === 'hnsw' || v === 'binary' ? v : 'two-tier';
}

/** One kind of item (facts, or entities) with its vectors and its pending list. */
export class Lane {
  vectors: LaneVectors;
  /** A fresh set being filled by a full re-embedding; it replaces `vectors` once complete (see restart()). */
  private next: LaneVectors | null = null;
  pending: number[] = [];
  private head = 0;
  /** restart() calls so far: keys taken before one are queued again by it (embed-helper.ts). */
  epoch = 0;
  constructor(
    dim: number,
    readonly text: (key: number) => string,
    readonly kind: LaneKind = 'hnsw',
  ) {
    this.vectors = this.make(dim);
  }
  private make(dim: number): LaneVectors {
    if (this.kind === 'binary') return new BinaryVectorSet(dim);
    return this.kind === 'two-tier' ? new TwoTierVectorSet(dim) : new VectorSet(dim);
  }
  /** Keys the searched set's HNSW tier does not cover yet (0 for a set of one tier). */
  get unbuilt(): number {
    return this.vectors instanceof TwoTierVectorSet ? this.vectors.unbuilt : 0;
  }
  /** Inserts up to `max` keys into the searched set's HNSW tier (two-tier.ts); returns how many. */
  buildStep(max: number, threads: number): number {
    return this.vectors instanceof TwoTierVectorSet ? this.vectors.buildStep(max, threads) : 0;
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
    this.epoch++;
    this.pending = Array.from({ length: n }, (_, i) => i);
    this.head = 0;
  }

  /** Stores computed vectors, row i of `rows` being keys[i]'s (into the set being rebuilt, if any; swapped in when nothing is pending). */
  store(keys: readonly number[], rows: Float32Array, threads = 1): void {
    (this.next ?? this.vectors).setMany(keys, rows, threads);
    this.stored();
  }

  /** Whether store() takes vectors encoded elsewhere (storeEncoded): a set of binary codes and exact rows. */
  get encodes(): boolean {
    return this.kind !== 'hnsw';
  }

  /** As store(), for vectors already encoded (binary-set.ts, encodeRows); only when `encodes`. */
  storeEncoded(keys: readonly number[], exact: Int16Array, codes: Uint8Array): void {
    const set = this.next ?? this.vectors;
    if (set instanceof VectorSet) throw new TypeError('an HNSW lane takes vectors, not codes');
    set.setEncoded(keys, exact, codes);
    this.stored();
  }

  private stored(): void {
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

/** A build slice's length when nothing else wants the loop (queue.ts's SLICE_MS). */
const BUILD_SLICE_MS = 8;

/**
 * Builds the HNSW tier of two-tier lanes for BUILD_SLICE_MS or until `yieldNow` (a write wants the loop), as the
 * catch-up inserts (queue.ts): 32 keys a native call on the threads catchUpThreads allows; while `busy` (an ingest
 * runs, or queries come: a query's turn waits behind a slice under way), one call of 16 keys on one thread (about
 * 4 ms), the queue pacing the slices BUSY_PAUSE_MS apart. Not counted in the queue's `worked`: checkpoints are the
 * catch-up's; the close saves the build.
 */
export function buildSlice(lanes: readonly Lane[], busy: boolean, yieldNow: () => boolean): void {
  const end = performance.now() + (busy ? 0 : BUILD_SLICE_MS);
  const threads = busy ? 1 : catchUpThreads();
  for (const lane of lanes)
    while (lane.unbuilt > 0) {
      if (lane.buildStep(busy ? 16 : 32, threads) === 0) break;
      if (performance.now() > end || yieldNow()) return;
    }
}
