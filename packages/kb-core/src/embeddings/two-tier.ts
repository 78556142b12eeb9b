// The local lanes' default vector set (lane.ts): binary codes and exact rows for every vector (binary-set.ts),
// and an HNSW index (vectors.ts) built afterwards from those rows, in the background. A catch-up pays only the
// codes and rows (68-95 µs a vector against HNSW's ~310), so the search stage settles, searchable at full recall,
// long before the graph is built (80% of an HNSW catch-up's CPU was its inserts: issue 41, point 2). A query asks
// HNSW for the keys it covers and scans the codes of the others (or all codes while HNSW covers under half);
// candidates of both are ranked by the same exact rows, so the merge is by one score. Once HNSW covers every key,
// a query is HNSW's alone: today's latency.
//
// HNSW is built in key order: keys below `built` were inserted when the build passed them; a key set (replaced,
// or added late) below `built` is `stale` until the build inserts it again, its HNSW entry ignored meanwhile and
// its row scored exactly at each query; a key deleted leaves its HNSW entry, ignored (HNSW cannot drop it cheaply).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { ExactRows } from './exact-rows.js';
import { BinaryVectorSet } from './binary-set.js';
import { unitRows, VectorSet } from './vectors.js';

/** Below this share of the keys covered by HNSW, a query scans every code instead (HNSW then saves it little). */
const HNSW_FROM_SHARE = 0.5;

/** The least HNSW is asked for (see nearest()). */
const HNSW_ASK = 64;

type Near = { key: number; similarity: number };

function readInt32(path: string): Int32Array {
  const buf = readFileSync(path);
  return new Int32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));
}

export class TwoTierVectorSet {
  private all: BinaryVectorSet;
  private hnsw: VectorSet;
  /** Keys below this were passed by the build (inserted into HNSW if held then). */
  private built = 0;
  /** Keys below `built` whose HNSW entry is missing or outdated (set since the build passed them). */
  private stale = new Set<number>();
  /** Keys held whose HNSW entry is current: below `built` and not stale. */
  private covered = 0;

  constructor(readonly dim: number) {
    this.all = new BinaryVectorSet(dim);
    this.hnsw = new VectorSet(dim, this.all.rows);
  }

  get size(): number {
    return this.all.size;
  }

  has(key: number): boolean {
    return this.all.has(key);
  }

  /** Every key's exact vector (the rows both tiers rank by). */
  get rows(): ExactRows {
    return this.all.rows;
  }

  /** Keys HNSW does not cover yet (the background build's work left). */
  get unbuilt(): number {
    return this.all.size - this.covered;
  }

  /** Keys HNSW covers. */
  get coveredKeys(): number {
    return this.covered;
  }

  set(key: number, v: Float32Array): void {
    this.setMany([key], v);
  }

  /** Adds or replaces vectors: into the binary set now, into HNSW by the build (buildStep). */
  setMany(keys: readonly number[], rows: Float32Array, _threads = 1): void {
    for (const k of keys) this.outdate(k);
    this.all.setMany(keys, rows);
    for (const k of keys) if (k < this.built) this.stale.add(k);
  }

  /** As setMany, for vectors already encoded (binary-set.ts, encodeRows). */
  setEncoded(keys: readonly number[], exact: Int16Array, codes: Uint8Array): void {
    for (const k of keys) this.outdate(k);
    this.all.setEncoded(keys, exact, codes);
    for (const k of keys) if (k < this.built) this.stale.add(k);
  }

  /** Removes key's vector (a key not held is ignored). */
  delete(key: number): void {
    if (!this.all.has(key)) return;
    this.outdate(key);
    this.stale.delete(key);
    this.all.delete(key);
  }

  /** Key's HNSW entry no longer counts (it is about to change or go). */
  private outdate(k: number): void {
    if (k < this.built && this.all.has(k) && !this.stale.has(k)) this.covered--;
  }

  /**
   * Inserts up to `max` keys HNSW lacks (stale ones first, then from `built` on) from their exact rows, on
   * `threads` native threads (vectors.ts); returns how many.
   */
  buildStep(max: number, threads = 1): number {
    const keys: number[] = [];
    for (const k of this.stale) {
      if (keys.length >= max) break;
      keys.push(k);
    }
    for (const k of keys) this.stale.delete(k);
    let next = this.built;
    const limit = this.all.limit;
    while (keys.length < max && next < limit) {
      if (this.all.has(next)) keys.push(next);
      next++;
    }
    if (keys.length === 0) {
      this.built = next;
      return 0;
    }
    const rows = new Float32Array(keys.length * this.dim);
    for (let i = 0; i < keys.length; i++) this.all.rows.rowInto(keys[i]!, rows, i * this.dim);
    this.hnsw.setMany(keys, rows, threads);
    this.built = next;
    this.covered += keys.length;
    return keys.length;
  }

  /** The n nearest keys with cosine similarity by the exact rows, best first (ties by key). */
  nearest(q: Float32Array, n: number): Near[] {
    if (this.all.size === 0 || n <= 0) return [];
    if (this.covered < this.all.size * HNSW_FROM_SHARE) return this.all.nearest(q, n);
    const v = unitRows(q, this.dim);
    // HNSW entries not current (stale or deleted keys) are found too and dropped: asked for beyond n. HNSW ranks
    // by i8 inner products, whose near-ties swap the last few of n: it is asked for HNSW_ASK at least (within its
    // expansion_search of 128, so at no extra graph work), all re-ranked by the exact rows.
    const dead = this.hnsw.size - this.covered;
    const keys: number[] = [];
    for (const r of this.hnsw.nearest(v, Math.max(n, HNSW_ASK) + dead))
      if (this.all.has(r.key) && !this.stale.has(r.key)) keys.push(r.key);
    keys.push(...this.stale);
    const sims = new Float64Array(keys.length);
    this.all.rows.similarities(v, Int32Array.from(keys), sims);
    const out: Near[] = keys.map((key, i) => ({ key, similarity: sims[i]! }));
    if (this.covered < this.all.size) out.push(...this.all.nearest(v, n, this.built));
    return out.sort((a, b) => b.similarity - a.similarity || a.key - b.key).slice(0, n);
  }

  /** Frees every vector's memory now (see VectorSet.release); the set takes vectors again afterwards. */
  release(): void {
    this.hnsw.release();
    this.all.release();
    this.built = 0;
    this.stale.clear();
    this.covered = 0;
  }

  clear(): void {
    this.release();
    this.hnsw = new VectorSet(this.dim, this.all.rows);
  }

  keyList(): Int32Array {
    return this.all.keyList();
  }

  /**
   * Writes the codes and exact rows to `path` (binary-set.ts) and, once the build has begun, HNSW beside them
   * (`.hnsw`, its keys `.hnsw.keys`, and `.hnsw.json`: `built` and the stale keys), so that an open resumes the
   * build where it stopped. Returns the files written.
   */
  save(path: string): string[] {
    const files = this.all.save(path);
    if (this.hnsw.size === 0) return files;
    const hnswKeys = this.hnsw.keyList();
    writeFileSync(`${path}.hnsw.keys`, hnswKeys, { mode: 0o600 });
    writeFileSync(`${path}.hnsw.json`, JSON.stringify({ built: this.built, stale: [...this.stale] }), { mode: 0o600 });
    return [...files, ...this.hnsw.save(`${path}.hnsw`), `${path}.hnsw.keys`, `${path}.hnsw.json`];
  }

  /** Replaces the contents with a save() at `path` holding `keys`; throws when the files do not fit (persist.ts rebuilds). */
  load(path: string, keys: Int32Array): void {
    const all = new BinaryVectorSet(this.dim);
    all.load(path, keys);
    try {
      this.adopt(all, existsSync(`${path}.hnsw.json`) ? `${path}.hnsw` : null);
    } catch (e) {
      // Its rows' file is closed (exact-rows.ts keeps it open).
      all.release();
      throw e;
    }
  }

  /**
   * Replaces the contents with an HNSW lane's save (vectors.ts, `path` the i8 index with its exact rows beside it):
   * the codes are made from the rows and the index is taken as covering every key.
   */
  loadFromIndex(path: string, keys: Int32Array): void {
    const all = new BinaryVectorSet(this.dim);
    all.loadFromRows(path, keys);
    const hnsw = new VectorSet(this.dim, all.rows);
    hnsw.load(path, keys);
    this.swap(all, hnsw, keys.length === 0 ? 0 : keys[keys.length - 1]! + 1, new Set());
  }

  private adopt(all: BinaryVectorSet, hnswPath: string | null): void {
    const hnsw = new VectorSet(this.dim, all.rows);
    if (hnswPath === null) {
      this.swap(all, hnsw, 0, new Set());
      return;
    }
    const meta = JSON.parse(readFileSync(`${hnswPath}.json`, 'utf8')) as { built: number; stale: number[] };
    if (!Number.isInteger(meta.built) || !Array.isArray(meta.stale))
      throw new Error(`${hnswPath}.json: not a build state`);
    hnsw.load(hnswPath, readInt32(`${hnswPath}.keys`));
    this.swap(all, hnsw, meta.built, new Set(meta.stale));
  }

  private swap(all: BinaryVectorSet, hnsw: VectorSet, built: number, stale: Set<number>): void {
    this.release();
    this.all = all;
    this.hnsw = hnsw;
    this.built = built;
    // Stale keys since deleted stay out; keys below `built` the HNSW lacks (none, unless the files disagree) are stale.
    this.stale = new Set([...stale].filter((k) => all.has(k)));
    for (const k of all.keyList()) {
      if (k >= built) break;
      if (!hnsw.has(k)) this.stale.add(k);
    }
    let covered = 0;
    for (const k of all.keyList()) if (k < built && !this.stale.has(k)) covered++;
    this.covered = covered;
  }
}
