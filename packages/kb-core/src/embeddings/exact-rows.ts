// The exact vectors of a vector set (vectors.ts), kept beside its HNSW index to re-rank what the index finds. The
// index holds i8 vectors (a quarter of the insert's distance work and half the memory of f16), whose inner
// products tie and swap near neighbours; usearch's binding cannot hand a stored vector back, so the set keeps its
// own copy. Rows are 16-bit fixed point (a unit vector's values in [-1, 1] in steps of 1/32767: finer than f16
// for every value below 0.06, the typical one at 256 dimensions), dense by key (facts and entities are numbered
// from 0), in chunks so that growing never copies the whole. A reopen can read them in the background (load's
// `background`): a million vectors' rows are 478 MB, a quarter of a reopen, and searches need only a few thousand.

import { closeSync, openSync, statSync, writeSync } from 'node:fs';
import { readAt } from '../store/section-file.js';
import { KeyBits } from './key-bits.js';

const SCALE = 32767;

/** `rows` (each of `dim` values) scaled to unit length: a copy when one is not already (a zero row stays zero). */
export function unitRows(rows: Float32Array, dim: number): Float32Array {
  let out: Float32Array | null = null;
  for (let r = 0; r < rows.length; r += dim) {
    let n = 0;
    for (let i = r; i < r + dim; i++) n += rows[i]! * rows[i]!;
    if (n === 0 || Math.abs(n - 1) < 1e-6) continue;
    out ??= rows.slice();
    const inv = 1 / Math.sqrt(n);
    for (let i = r; i < r + dim; i++) out[i] = rows[i]! * inv;
  }
  return out ?? rows;
}

/** Row `at / dim` of unit `rows` in 16-bit fixed point, into `out` from `to`: the form ExactRows keeps. */
export function quantizeRow(rows: Float32Array, at: number, dim: number, out: Int16Array, to: number): void {
  for (let d = 0; d < dim; d++) out[to + d] = Math.round(Math.max(-1, Math.min(1, rows[at + d]!)) * SCALE);
}

/** A 16-bit row back as floats (a unit vector, as exact as the rows), into `out` from `at`. */
export function dequantizeRow(row: Int16Array, from: number, dim: number, out: Float32Array, at: number): void {
  for (let d = 0; d < dim; d++) out[at + d] = row[from + d]! / SCALE;
}
/** Keys per chunk. */
const CHUNK = 4096;

/** Rows a background load has still to read: keys[from..] are in the file at `fd`, row i at i * dim * 2. */
interface Pending {
  fd: number;
  path: string;
  keys: Int32Array;
  from: number;
  timer: NodeJS.Immediate | null;
}

/** How long one background slice reads before it gives the event loop back. */
const SLICE_MS = 4;

export class ExactRows {
  private chunks: Int16Array[] = [];
  private readonly held = new KeyBits();
  private pending: Pending | null = null;
  /** A row read from the pending file (source()), and where the last source() found its row. */
  private scratch: Int16Array;
  private src: Int16Array = new Int16Array(0);
  private srcAt = 0;

  constructor(readonly dim: number) {
    this.scratch = new Int16Array(dim);
  }

  /** Whether a background load is still reading (tests, status). */
  get loading(): boolean {
    return this.pending !== null;
  }

  has(key: number): boolean {
    return this.held.has(key);
  }

  /** Stores row i of `rows` (unit vectors, `dim` values each) as keys[i]'s. */
  setMany(keys: readonly number[], rows: Float32Array): void {
    this.finish();
    const dim = this.dim;
    const row = new Int16Array(dim);
    for (let i = 0; i < keys.length; i++) {
      quantizeRow(rows, i * dim, dim, row, 0);
      this.put(keys[i]!, row);
    }
  }

  /** Stores row i of `rows` (16-bit rows as quantizeRow makes them) as keys[i]'s. */
  putRows(keys: readonly number[], rows: Int16Array): void {
    this.finish();
    for (let i = 0; i < keys.length; i++) this.put(keys[i]!, rows.subarray(i * this.dim, (i + 1) * this.dim));
  }

  /** The inner product of `q` (a unit vector) and key's row: the cosine similarity, as exact as the rows. */
  similarity(q: Float32Array, key: number): number {
    const dim = this.dim;
    this.source(key);
    const row = this.src;
    const at = this.srcAt;
    let s = 0;
    for (let d = 0; d < dim; d++) s += q[d]! * row[at + d]!;
    return s / SCALE;
  }

  /** Key's row as floats (a unit vector, as exact as the rows), into `out` from `at`. */
  rowInto(key: number, out: Float32Array, at: number): void {
    this.source(key);
    dequantizeRow(this.src, this.srcAt, this.dim, out, at);
  }

  /** Forgets key's row (its bytes stay until overwritten). */
  delete(key: number): void {
    this.finish();
    this.held.delete(key);
  }

  /**
   * Points src/srcAt at key's row: its chunk's, or, while a background load has not reached it, a copy read from
   * the file (one read of dim * 2 bytes).
   */
  private source(key: number): void {
    const p = this.pending;
    if (p !== null && p.from < p.keys.length && key >= p.keys[p.from]!) {
      let lo = p.from;
      let hi = p.keys.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (p.keys[mid]! < key) lo = mid + 1;
        else hi = mid;
      }
      const bytes = this.dim * 2;
      const view = new Uint8Array(this.scratch.buffer, 0, bytes);
      if (p.keys[lo] !== key || !readAt(p.fd, view, lo * bytes)) throw new RangeError(`no exact row for key ${key}`);
      this.src = this.scratch;
      this.srcAt = 0;
      return;
    }
    this.src = this.chunks[Math.floor(key / CHUNK)]!;
    this.srcAt = (key % CHUNK) * this.dim;
  }

  /**
   * similarity() of each of `keys` (every one held) into `out`: the query in f64 and four sums, 0.26 against
   * 0.38-0.57 µs a row through similarity() (measured with 2,000 rows of 256 values, load about 9).
   */
  similarities(q: Float32Array, keys: Int32Array, out: Float64Array): void {
    const dim = this.dim;
    const q64 = Float64Array.from(q);
    const pending = this.pending !== null;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      let row: Int16Array;
      let at: number;
      if (pending) {
        this.source(key);
        row = this.src;
        at = this.srcAt;
      } else {
        row = this.chunks[Math.floor(key / CHUNK)]!;
        at = (key % CHUNK) * dim;
      }
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      let d = 0;
      for (; d + 3 < dim; d += 4) {
        s0 += q64[d]! * row[at + d]!;
        s1 += q64[d + 1]! * row[at + d + 1]!;
        s2 += q64[d + 2]! * row[at + d + 2]!;
        s3 += q64[d + 3]! * row[at + d + 3]!;
      }
      for (; d < dim; d++) s0 += q64[d]! * row[at + d]!;
      out[i] = (s0 + s1 + (s2 + s3)) / SCALE;
    }
  }

  clear(): void {
    this.stop();
    this.chunks = [];
    this.held.clear();
  }

  /**
   * Writes the rows of `keys` (every one held), end to end in that order, to `path`; a block of keys at a time,
   * so that a save at a million vectors does not hold a second copy of them all (476 MB at 256 dimensions).
   */
  save(path: string, keys: Int32Array): void {
    this.finish();
    const dim = this.dim;
    const block = new Int16Array(CHUNK * dim);
    const fd = openSync(path, 'w', 0o600);
    try {
      for (let from = 0; from < keys.length; from += CHUNK) {
        const m = Math.min(CHUNK, keys.length - from);
        for (let i = 0; i < m; i++) {
          const k = keys[from + i]!;
          if (!this.held.has(k)) throw new RangeError(`no exact row for key ${k}`);
          const at = (k % CHUNK) * dim;
          block.set(this.chunks[Math.floor(k / CHUNK)]!.subarray(at, at + dim), i * dim);
        }
        writeSync(fd, block, 0, m * dim * 2);
      }
    } finally {
      closeSync(fd);
    }
  }

  /**
   * Reads the rows of `keys` from `path`, as save() wrote them. A run of keys that fills a chunk from its start
   * (facts and entities are numbered densely, so nearly every run) is read straight into the chunk; other keys
   * a row at a time through a block. Measured at 50,000 vectors: 40-80 ms of CPU read row by row.
   * `background`: every key is held at once and the rows are read in slices of the event loop; a row asked for
   * before its slice is read from the file, and anything that changes the rows first reads the rest.
   */
  load(path: string, keys: Int32Array, options: { background?: boolean } = {}): void {
    this.finish();
    if (statSync(path).size !== keys.length * this.dim * 2)
      throw new RangeError(`${path}: ${statSync(path).size} bytes for ${keys.length} rows`);
    const p: Pending = { fd: openSync(path, 'r'), path, keys, from: 0, timer: null };
    this.pending = p;
    if (!options.background) {
      this.finish();
      return;
    }
    for (const k of keys) this.held.add(k);
    const slice = () => {
      p.timer = null;
      if (this.pending !== p) return;
      const until = performance.now() + SLICE_MS;
      try {
        while (p.from < p.keys.length && performance.now() < until) this.readRun(p);
      } catch {
        // The file went bad under us: what is left is read (and fails) when next asked for.
        return;
      }
      if (p.from < p.keys.length) p.timer = setImmediate(slice).unref();
      else this.stop();
    };
    p.timer = setImmediate(slice).unref();
  }

  /** Reads what a background load has left, now. */
  finish(): void {
    const p = this.pending;
    if (p === null) return;
    try {
      while (p.from < p.keys.length) this.readRun(p);
    } finally {
      this.stop();
    }
  }

  /** Ends a background load where it is (clear(); finish() once it has read everything). */
  private stop(): void {
    const p = this.pending;
    if (p === null) return;
    this.pending = null;
    if (p.timer) clearImmediate(p.timer);
    closeSync(p.fd);
  }

  /** Reads the next run of a load's keys: a whole chunk's straight into it, else up to CHUNK rows through a block. */
  private readRun(p: Pending): void {
    const dim = this.dim;
    const { keys, from } = p;
    const k = keys[from]!;
    const c = Math.floor(k / CHUNK);
    const end = Math.min((c + 1) * CHUNK, keys.length - from + k);
    // Keys ascending and distinct: the run k..end-1 is whole when its last key is end-1.
    let m = end - k;
    if (k % CHUNK === 0 && keys[from + m - 1] === end - 1) {
      const chunk = this.chunk(c);
      if (!readAt(p.fd, new Uint8Array(chunk.buffer, 0, m * dim * 2), from * dim * 2))
        throw new RangeError(`${p.path}: cut short`);
      for (let i = 0; i < m; i++) this.held.add(k + i);
    } else {
      m = Math.min(CHUNK, keys.length - from);
      const block = new Int16Array(m * dim);
      if (!readAt(p.fd, new Uint8Array(block.buffer), from * dim * 2)) throw new RangeError(`${p.path}: cut short`);
      for (let i = 0; i < m; i++) this.put(keys[from + i]!, block.subarray(i * dim, (i + 1) * dim));
    }
    p.from = from + m;
  }

  private chunk(c: number): Int16Array {
    while (this.chunks.length <= c) this.chunks.push(new Int16Array(0));
    if (this.chunks[c]!.length === 0) this.chunks[c] = new Int16Array(CHUNK * this.dim);
    return this.chunks[c]!;
  }

  private put(key: number, row: Int16Array): void {
    this.chunk(Math.floor(key / CHUNK)).set(row, (key % CHUNK) * this.dim);
    this.held.add(key);
  }
}
