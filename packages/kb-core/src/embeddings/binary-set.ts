// A set of vectors by key, searched by a flat scan of binary codes whose candidates are ranked by the exact rows
// (binary-codes.ts, exact-rows.ts); the local lanes hold one instead of HNSW when asked (lane.ts,
// EVIDENT_LOCAL_VECTORS=binary). Adding a vector costs its code (a rotation and 256 signs, about 5 µs) and its
// exact row: no graph to insert into, which was 80% of a catch-up's CPU with HNSW (vectors.ts) at 200,000 claims.
// A query scans every code (32 bytes a vector), so its cost grows with the set where HNSW's grows with its
// logarithm: the trade measured in docs/kb-performance.md (issue 41, point 2).
import { closeSync, existsSync, openSync, readFileSync, readSync, statSync, writeFileSync } from 'node:fs';
import { CODE_BITS, CodeTable, kthLargest, SignCoder, signBits } from './binary-codes.js';
import { dequantizeRow, ExactRows, quantizeRow } from './exact-rows.js';
import { KeyBits } from './key-bits.js';
import { unitRows } from './exact-rows.js';

const CODE_BYTES = CODE_BITS / 8;
/** The codes file: this magic, then dim, count and bits per code (u32 each), then the codes in key order. */
const MAGIC = 0x3143424b; // 'KBC1'
const HEADER = 16;
/** Keys whose stored code is checked against one made again from its exact row at load. */
const CHECKED = 64;

/**
 * Candidates for n wanted: the Hamming scan keeps the larger of HAMMING_MIN and HAMMING_SHARE of the set, the
 * query's rotated values against their signs keep RERANK_PER_WANTED × n (at least RERANK_MIN), and those are
 * ranked exactly. Measured with bench/search-ann.ts against an exact scan (recall@100): 166,664 vectors, Hamming
 * 10,000 then 2,000 re-ranked 0.913 (1,000: 0.866; Hamming 20,000: 0.934); 999,998 vectors, 20,000 then 2,000
 * 0.877 (50,000: 0.899); recall@10 1.000 in all. The Hamming share is the query's cost: see the doc.
 */
const RERANK_PER_WANTED = 20;
/** Re-ranking 2,000 exact rows costs about 0.5-1 ms: fewer saves little, and a set this small is ranked exactly. */
const RERANK_MIN = 2000;
const HAMMING_MIN = 10000;
const HAMMING_SHARE = 0.02;

export class BinaryVectorSet {
  private codes = new CodeTable();
  private readonly coder: SignCoder;
  private exact: ExactRows;
  private readonly keys = new KeyBits();
  private readonly code = new Uint8Array(CODE_BYTES);

  constructor(readonly dim: number) {
    this.coder = new SignCoder(dim);
    this.exact = new ExactRows(dim);
  }

  get size(): number {
    return this.keys.size;
  }

  has(key: number): boolean {
    return this.keys.has(key);
  }

  /** Adds or replaces key's vector. */
  set(key: number, v: Float32Array): void {
    this.setMany([key], v);
  }

  /** Adds or replaces the vectors of `keys`, row i of `rows` (keys.length × dim) being keys[i]'s. */
  setMany(keys: readonly number[], rows: Float32Array, _threads = 1): void {
    if (rows.length !== keys.length * this.dim)
      throw new RangeError(`${rows.length} values for ${keys.length} vectors of ${this.dim}`);
    if (keys.length === 0) return;
    rows = unitRows(rows, this.dim);
    this.exact.setMany(keys, rows);
    // The code of the row as stored (16-bit), not of the row given: load() makes a sample again from the rows.
    const row = new Float32Array(this.dim);
    for (const k of keys) {
      this.keys.add(k);
      this.exact.rowInto(k, row, 0);
      this.coder.encode(row, 0, this.codes.slot(k), 0);
    }
  }

  /** Adds or replaces vectors already encoded (encodeRows): keys[i]'s exact row and code are row i of each. */
  setEncoded(keys: readonly number[], exact: Int16Array, codes: Uint8Array): void {
    this.exact.putRows(keys, exact);
    for (let i = 0; i < keys.length; i++) this.keys.add(keys[i]!);
    this.codes.setMany(keys, codes);
  }

  /** Removes key's vector (a key not held is ignored). */
  delete(key: number): void {
    if (!this.keys.has(key)) return;
    this.keys.delete(key);
    this.exact.delete(key);
    this.codes.slot(key).fill(0);
  }

  /** Drops every vector and frees their memory (the set takes vectors again afterwards). */
  release(): void {
    this.codes = new CodeTable();
    this.exact.clear();
    this.keys.clear();
  }

  clear(): void {
    this.release();
  }

  /** Keys held, ascending. */
  keyList(): Int32Array {
    return this.keys.list();
  }

  /** Writes the codes to `path` and the exact rows beside it (`.rowkeys`, `.rows`); returns the files written. */
  save(path: string): string[] {
    const keys = this.keys.list();
    const out = new Uint8Array(HEADER + keys.length * CODE_BYTES);
    new Uint32Array(out.buffer, 0, 4).set([MAGIC, this.dim, keys.length, CODE_BITS]);
    const all = this.codes.bytes();
    for (let i = 0; i < keys.length; i++) {
      const at = keys[i]! * CODE_BYTES;
      out.set(all.subarray(at, at + CODE_BYTES), HEADER + i * CODE_BYTES);
    }
    writeFileSync(path, out, { mode: 0o600 });
    writeFileSync(`${path}.rowkeys`, keys, { mode: 0o600 });
    this.exact.save(`${path}.rows`, keys);
    return [path, `${path}.rowkeys`, `${path}.rows`];
  }

  /**
   * Replaces the contents with the vectors saved at `path` (save()), holding `keys`. Throws when the files do not
   * hold exactly those keys or a sample of the stored codes differs from the codes of their rows (a damaged file,
   * or codes of another coder): the caller rebuilds (persist.ts).
   */
  load(path: string, keys: Int32Array): void {
    const size = statSync(path).size;
    const fd = openSync(path, 'r');
    const codes = new Uint8Array(size);
    try {
      readSync(fd, codes, 0, size, 0);
    } finally {
      closeSync(fd);
    }
    const [magic, dim, count, bits] = new Uint32Array(codes.buffer, 0, 4);
    if (magic !== MAGIC || dim !== this.dim || bits !== CODE_BITS || count !== keys.length)
      throw new Error(`${path}: not the codes of ${keys.length} vectors of ${this.dim}`);
    if (size !== HEADER + count * CODE_BYTES) throw new Error(`${path}: ${size} bytes for ${count} codes`);
    // The rows stay in their file, read when a re-rank asks (exact-rows.ts): not 478 MB read and held at a
    // million vectors.
    this.loadRows(path, keys, true);
    const table = new CodeTable();
    table.setMany(keys, codes.subarray(HEADER));
    const row = new Float32Array(this.dim);
    const made = new Uint8Array(CODE_BYTES);
    const step = Math.max(1, Math.floor(keys.length / CHECKED));
    for (let i = 0; i < keys.length; i += step) {
      this.exact.rowInto(keys[i]!, row, 0);
      this.coder.encode(row, 0, made, 0);
      if (!sameCode(made, table.slot(keys[i]!))) {
        // Refused: the rows' file is closed.
        this.exact.clear();
        throw new Error(`${path}: the code of key ${keys[i]} is not its row's`);
      }
    }
    this.codes = table;
    this.keys.clear();
    for (const k of keys) this.keys.add(k);
  }

  /**
   * Replaces the contents with the exact rows saved beside an HNSW index by the code before this set
   * (`<index>.rowkeys`, `<index>.rows`, vectors.ts), making their codes: an i8 save reopens without embedding
   * again. Throws when the rows are not those of exactly `keys` (an f16 index has none: it is rebuilt).
   */
  loadFromRows(path: string, keys: Int32Array): void {
    this.loadRows(path, keys);
    const table = new CodeTable();
    const row = new Float32Array(this.dim);
    for (const k of keys) {
      this.exact.rowInto(k, row, 0);
      this.coder.encode(row, 0, table.slot(k), 0);
    }
    this.codes = table;
    this.keys.clear();
    for (const k of keys) this.keys.add(k);
  }

  private loadRows(path: string, keys: Int32Array, keepInFile = false): void {
    if (!existsSync(`${path}.rows`)) throw new Error(`${path}: no exact rows`);
    const buf = readFileSync(`${path}.rowkeys`);
    const rowKeys = new Int32Array(buf.buffer, buf.byteOffset, buf.byteLength >> 2);
    if (rowKeys.length !== keys.length || rowKeys.some((k, i) => k !== keys[i]))
      throw new Error(`${path}: exact rows of other keys`);
    const exact = new ExactRows(this.dim);
    exact.load(`${path}.rows`, keys, { keepInFile });
    this.exact = exact;
  }

  /** The exact rows (the two-tier set's HNSW shares them, two-tier.ts): replaced by load(). */
  get rows(): ExactRows {
    return this.exact;
  }

  /** Keys below this may be held (one code slot each). */
  get limit(): number {
    return this.codes.length;
  }

  /** The n nearest keys with cosine similarity (by the exact rows), best first; keys below `from` are not looked at. */
  nearest(q: Float32Array, n: number, from = 0): { key: number; similarity: number }[] {
    if (this.keys.size === 0 || n <= 0) return [];
    const v = unitRows(q, this.dim);
    const rotated = this.coder.rotated(v, 0);
    signBits(rotated, this.code, 0);
    const rerank = Math.max(n * RERANK_PER_WANTED, RERANK_MIN);
    const hamming = Math.max(rerank, HAMMING_MIN, Math.ceil((this.codes.length - from) * HAMMING_SHARE));
    const found = this.codes.nearest(this.code, rotated, hamming, rerank, from).filter((k) => this.keys.has(k));
    const sims = new Float64Array(found.length);
    this.exact.similarities(v, found, sims);
    // Only those that can be among the n best are sorted (of 2,000 candidates, sorting all cost about 0.8 ms).
    const bar = found.length > n ? kthLargest(sims.slice(), n) : Number.NEGATIVE_INFINITY;
    const out: { key: number; similarity: number }[] = [];
    for (let i = 0; i < found.length; i++) if (sims[i]! >= bar) out.push({ key: found[i]!, similarity: sims[i]! });
    return out.sort((a, b) => b.similarity - a.similarity || a.key - b.key).slice(0, n);
  }
}

function sameCode(a: Uint8Array, b: Uint8Array): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * What setMany stores for `rows` (n vectors of `dim`), made where it is cheaper to make them (embed-thread.ts): each
 * row scaled to unit length, its 16-bit exact row, and the code of that row as stored. setEncoded(keys, ...) then
 * leaves the set as setMany(keys, rows) would, bit for bit.
 */
export function encodeRows(
  rows: Float32Array,
  dim: number,
  coder = new SignCoder(dim),
): { exact: Int16Array; codes: Uint8Array } {
  const n = rows.length / dim;
  const unit = unitRows(rows, dim);
  const exact = new Int16Array(n * dim);
  const codes = new Uint8Array(n * CODE_BYTES);
  const row = new Float32Array(dim);
  for (let i = 0; i < n; i++) {
    quantizeRow(unit, i * dim, dim, exact, i * dim);
    dequantizeRow(exact, i * dim, dim, row, 0);
    coder.encode(row, 0, codes, i * CODE_BYTES);
  }
  return { exact, codes };
}
