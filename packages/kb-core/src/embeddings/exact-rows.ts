// The exact vectors of a vector set (vectors.ts), kept beside its HNSW index to re-rank what the index finds. The
// index holds i8 vectors (a quarter of the insert's distance work and half the memory of f16), whose inner
// products tie and swap near neighbours; usearch's binding cannot hand a stored vector back, so the set keeps its
// own copy. Rows are 16-bit fixed point (a unit vector's values in [-1, 1] in steps of 1/32767: finer than f16
// for every value below 0.06, the typical one at 256 dimensions), dense by key (facts and entities are numbered
// from 0), in chunks so that growing never copies the whole. A reopen leaves the saved rows in their file (load's
// `keepInFile`) and reads a row when asked: a million vectors' rows are 478 MB, a quarter of a reopen and of the
// process's memory, and a search re-ranks 64-2,000 of them (about 1 µs a row from the page cache).

import { closeSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
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

/** Rows left in the file load() read: row i of the file is keys[i]'s. */
interface FileRows {
  fd: number;
  path: string;
  keys: Int32Array;
}

export class ExactRows {
  private chunks: Int16Array[] = [];
  private readonly held = new KeyBits();
  /** Keys whose row is in `chunks`; a held key that is not is in `file`. */
  private readonly resident = new KeyBits();
  private file: FileRows | null = null;
  /** A row read from the file (source()), and where the last source() found its row. */
  private readonly scratch: Int16Array;
  private src: Int16Array = new Int16Array(0);
  private srcAt = 0;

  constructor(readonly dim: number) {
    this.scratch = new Int16Array(dim);
  }

  /** How many held rows are read from the file when asked for (load's keepInFile), not held in memory. */
  get inFile(): number {
    return this.held.size - this.resident.size;
  }

  has(key: number): boolean {
    return this.held.has(key);
  }

  /** Stores row i of `rows` (unit vectors, `dim` values each) as keys[i]'s. */
  setMany(keys: readonly number[], rows: Float32Array): void {
    const dim = this.dim;
    const row = new Int16Array(dim);
    for (let i = 0; i < keys.length; i++) {
      quantizeRow(rows, i * dim, dim, row, 0);
      this.put(keys[i]!, row);
    }
  }

  /** Stores row i of `rows` (16-bit rows as quantizeRow makes them) as keys[i]'s. */
  putRows(keys: readonly number[], rows: Int16Array): void {
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
    this.held.delete(key);
    this.resident.delete(key);
  }

  /** Points src/srcAt at key's row: in its chunk, or read from the file into `scratch` (dim * 2 bytes). */
  private source(key: number): void {
    const f = this.file;
    if (f !== null && !this.resident.has(key)) {
      const i = fileIndex(f.keys, key);
      const bytes = this.dim * 2;
      if (i < 0 || !readAt(f.fd, new Uint8Array(this.scratch.buffer, 0, bytes), i * bytes))
        throw new RangeError(`no exact row for key ${key}`);
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
    const inFile = this.file !== null;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      let row: Int16Array;
      let at: number;
      if (inFile) {
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
    this.closeFile();
    this.chunks = [];
    this.held.clear();
    this.resident.clear();
  }

  /**
   * Writes the rows of `keys` (every one held), end to end in that order, to `path`; a block of keys at a time,
   * so that a save at a million vectors does not hold a second copy of them all (476 MB at 256 dimensions).
   */
  save(path: string, keys: Int32Array): void {
    const dim = this.dim;
    const block = new Int16Array(CHUNK * dim);
    // A new file, never the old one truncated: a set that keeps that file open (this one, or another handle's)
    // still reads its rows from it.
    rmSync(path, { force: true });
    const fd = openSync(path, 'wx', 0o600);
    try {
      for (let from = 0; from < keys.length; from += CHUNK) {
        const m = Math.min(CHUNK, keys.length - from);
        // Rows still in the file are copied a run at a time: keys ascending in both, so a run of keys that are
        // next to each other there is one read.
        let run = 0;
        let runFrom = -1;
        const flush = (i: number) => {
          if (run > 0) this.readFileRows(runFrom, run, block, i - run);
          run = 0;
        };
        for (let i = 0; i < m; i++) {
          const k = keys[from + i]!;
          if (!this.held.has(k)) throw new RangeError(`no exact row for key ${k}`);
          if (this.file !== null && !this.resident.has(k)) {
            const at = fileIndex(this.file.keys, k);
            if (run > 0 && at === runFrom + run) run++;
            else {
              flush(i);
              runFrom = at;
              run = 1;
            }
            continue;
          }
          flush(i);
          const at = (k % CHUNK) * dim;
          block.set(this.chunks[Math.floor(k / CHUNK)]!.subarray(at, at + dim), i * dim);
        }
        flush(m);
        writeSync(fd, block, 0, m * dim * 2);
      }
    } finally {
      closeSync(fd);
    }
  }

  /** Rows from..from+n-1 of the file into `block` from row `to`. */
  private readFileRows(from: number, n: number, block: Int16Array, to: number): void {
    const bytes = this.dim * 2;
    if (!readAt(this.file!.fd, new Uint8Array(block.buffer, to * bytes, n * bytes), from * bytes))
      throw new RangeError(`${this.file!.path}: cut short`);
  }

  /**
   * Reads the rows of `keys` from `path`, as save() wrote them, replacing what is held. A run of keys that fills a
   * chunk from its start (facts and entities are numbered densely, so nearly every run) is read straight into the
   * chunk; other keys a row at a time through a block. Measured at 50,000 vectors: 40-80 ms of CPU read row by
   * row. `keepInFile`: the rows stay in the file, kept open, and are read when asked for; rows stored afterwards
   * are held in memory over them. (Not on Windows, where an open file cannot be renamed over by the next save.)
   */
  load(path: string, keys: Int32Array, options: { keepInFile?: boolean } = {}): void {
    const dim = this.dim;
    if (statSync(path).size !== keys.length * dim * 2)
      throw new RangeError(`${path}: ${statSync(path).size} bytes for ${keys.length} rows`);
    this.clear();
    const fd = openSync(path, 'r');
    if (options.keepInFile && process.platform !== 'win32') {
      this.file = { fd, path, keys };
      for (const k of keys) this.held.add(k);
      return;
    }
    try {
      let from = 0;
      while (from < keys.length) {
        const k = keys[from]!;
        const c = Math.floor(k / CHUNK);
        const end = Math.min((c + 1) * CHUNK, keys.length - from + k);
        // Keys ascending and distinct: the run k..end-1 is whole when its last key is end-1.
        let m = end - k;
        if (k % CHUNK === 0 && keys[from + m - 1] === end - 1) {
          if (!readAt(fd, new Uint8Array(this.chunk(c).buffer, 0, m * dim * 2), from * dim * 2))
            throw new RangeError(`${path}: cut short`);
          for (let i = 0; i < m; i++) {
            this.held.add(k + i);
            this.resident.add(k + i);
          }
        } else {
          m = Math.min(CHUNK, keys.length - from);
          const block = new Int16Array(m * dim);
          if (!readAt(fd, new Uint8Array(block.buffer), from * dim * 2)) throw new RangeError(`${path}: cut short`);
          for (let i = 0; i < m; i++) this.put(keys[from + i]!, block.subarray(i * dim, (i + 1) * dim));
        }
        from += m;
      }
    } finally {
      closeSync(fd);
    }
  }

  private closeFile(): void {
    if (this.file === null) return;
    closeSync(this.file.fd);
    this.file = null;
  }

  private chunk(c: number): Int16Array {
    while (this.chunks.length <= c) this.chunks.push(new Int16Array(0));
    if (this.chunks[c]!.length === 0) this.chunks[c] = new Int16Array(CHUNK * this.dim);
    return this.chunks[c]!;
  }

  private put(key: number, row: Int16Array): void {
    this.chunk(Math.floor(key / CHUNK)).set(row, (key % CHUNK) * this.dim);
    this.held.add(key);
    this.resident.add(key);
  }
}

/** Where key is among the file's keys (ascending), or -1. */
function fileIndex(keys: Int32Array, key: number): number {
  let lo = 0;
  let hi = keys.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (keys[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return keys.length > 0 && keys[lo] === key ? lo : -1;
}
