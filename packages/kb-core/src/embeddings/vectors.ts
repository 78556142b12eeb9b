// Approximate nearest neighbours over unit vectors, keyed by dense integers (facts, entities). usearch
// (Unum's HNSW, Malkov & Yashunin 2018) is chosen over hnswlib-node: it ships prebuilt binaries for Linux,
// macOS and Windows inside the npm package (no node-gyp build and no download at install), grows without a
// fixed capacity, removes keys, saves and loads, and is actively released; hnswlib-node must compile its
// addon at install and needs max_elements up front.
import {
  closeSync,
  copyFileSync,
  existsSync,
  linkSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import usearch from 'usearch';
import { unitRows } from './exact-rows.js';
export { unitRows } from './exact-rows.js';
import { ExactRows } from './exact-rows.js';
import { KeyBits } from './key-bits.js';

/**
 * Threads of a batched insert while nothing else asks for the cores (queue.ts: no ingest under way). usearch
 * splits one add call's vectors over its own native threads; its thread contexts are sized when the index
 * grows, by the call that makes it grow, so a growing call always asks for this many (see setMany).
 */
export const INSERT_THREADS = Math.max(1, Math.min(2, availableParallelism()));

/** CPU time of every core and of this process at the last look (catchUpThreads), milliseconds. */
let lookAt = 0;
let cpuAll = 0;
let cpuOwn = 0;
let spare = false;

function cpuTimes(): { all: number; own: number } {
  let all = 0;
  for (const c of cpus()) all += c.times.user + c.times.nice + c.times.sys + c.times.irq;
  const u = process.cpuUsage();
  return { all, own: (u.user + u.system) / 1000 };
}

/**
 * The threads a catch-up's insert may use: INSERT_THREADS while the other processes of the machine leave a core
 * idle, else one. Judged from the CPU time every core and this process spent since the last look (at most once
 * a second), not from the load average: the one-minute average lags by a minute, so right after an ingest
 * (load about 2 on two cores) a quiet machine kept the catch-up on one thread for most of its first minute.
 * Measured at 41,666 vectors with a load of 17-20 on two cores: a second thread raised the CPU per insert
 * 277 -> 360 µs and the wall time with it, so it is used only when the others leave a core.
 */
export function catchUpThreads(): number {
  const now = performance.now();
  if (now - lookAt > 1000) {
    const t = cpuTimes();
    // The first look has nothing to compare with: the load average says.
    spare =
      lookAt === 0
        ? availableParallelism() - loadavg()[0]! >= 1
        : (t.all - cpuAll - (t.own - cpuOwn)) / (now - lookAt) < 0.5;
    lookAt = now;
    cpuAll = t.all;
    cpuOwn = t.own;
  }
  return spare ? INSERT_THREADS : 1;
}

function int32s(b: Buffer): Int32Array {
  return new Int32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
}

/** Bytes per value of the vectors in a usearch file: its header starts with the vectors' count and bytes per vector. */
function bytesPerValue(path: string, dim: number): number {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(8);
    readSync(fd, head, 0, 8, 0);
    return head.readUInt32LE(4) / dim;
  } finally {
    closeSync(fd);
  }
}

/**
 * Throws unless `path` is there and as long as its header says. usearch's `view` of a missing or short file
 * throws, but first closes file descriptor 0 (measured with usearch 2.x on Linux): the next file or thread the
 * process opens then takes fd 0, and Node aborts when it later closes a handle there (`uv__close` asserting
 * `fd > STDERR_FILENO`). A damaged file of the right length still reaches usearch.
 */
function checkIndexFile(path: string): void {
  if (!existsSync(path)) throw new Error(`${path} is missing`);
  const size = statSync(path).size;
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(8);
    if (size < 8 || readSync(fd, head, 0, 8, 0) < 8) throw new Error(`${path} is shorter than its header`);
    if (8 + head.readUInt32LE(0) * head.readUInt32LE(4) > size) throw new Error(`${path} is cut short`);
  } finally {
    closeSync(fd);
  }
}

/**
 * A set of vectors by key, searched through an HNSW index of i8 vectors whose candidates are ranked by the
 * exact vectors (exact-rows.ts).
 */
export class VectorSet {
  /** The writable index: every vector, or (after load()) those added since. */
  private index: InstanceType<typeof usearch.Index>;
  /** The vectors saved at the last close, mapped from their file (load()); null when everything is in `index`. */
  private base: InstanceType<typeof usearch.Index> | null = null;
  private basePath = '';
  private baseInode = 0;
  /** Keys of `base` whose vector was replaced since (held by `index` now): the base's entry is skipped. */
  private shadowed = new Set<number>();
  private readonly keys = new KeyBits();
  /** Every vector set since the index holds i8 ones, exact: what the index finds is re-ranked by them (nearest). */
  private exact: ExactRows;

  constructor(
    readonly dim: number,
    /** Rows another set owns and keeps current (the two-tier set's, two-tier.ts): neither written nor saved here. */
    private readonly sharedRows: ExactRows | null = null,
  ) {
    this.index = VectorSet.make(dim);
    this.exact = sharedRows ?? new ExactRows(dim);
  }

  // Measured with bench/profile-hnsw.ts (the workload's fact vectors from the local embedder, 41,666 of 256
  // dimensions, CPU time per insert, recall@100 against an exact scan): the former settings (f32, expansion_add
  // 128, expansion_search 64, one vector per call) cost 590 µs per insert for recall 0.85; f16 with
  // expansion_add 64 and expansion_search 128, in batches, costs 200 µs for recall 0.86, and halves the memory
  // per vector. int8 is cheaper still (150 µs, recall 0.85) but moved near-ties on bench/search-set enough to
  // cost hybrid recall@10 0.947 -> 0.932; f16 leaves every figure there unchanged.
  //
  // Inner product over unit vectors rather than cosine: the same order and the same similarity (every vector
  // and query is normalised here, so a provider's unnormalised vectors rank as under cosine), without the two
  // norms cosine computes per distance. Measured by the same script at 41,666 vectors: 347 -> 231 µs of CPU per
  // insert, recall@100 0.859 both.
  //
  // i8 since (issue 41, point 2): the index finds candidates, their exact rows (exact-rows.ts) rank them, so
  // i8's near-ties (hybrid recall@10 0.932 on bench/search-set when it ranked alone) no longer reach the answer.
  // usearch casts each unit vector to i8 itself (×127, truncated). Measured with bench/ann-build-options.ts:
  // 0.61-0.65x f16's CPU per insert at 50,000 vectors, 0.80x at 166,664, the same recall against an exact scan
  // once re-ranked; the catch-up's CPU 0.7x (docs/kb-performance.md). An index saved as f16 by earlier code still loads: usearch takes the scalar kind
  // from the file, and its keys, having no exact rows, keep the similarity the index gives.
  private static make(dim: number) {
    return new usearch.Index({
      metric: usearch.MetricKind.IP,
      dimensions: dim,
      quantization: usearch.ScalarKind.I8,
      connectivity: 16,
      expansion_add: 64,
      expansion_search: 128,
      multi: false,
    });
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

  /**
   * Adds or replaces the vectors of `keys`, row i of `rows` (keys.length × dim) being keys[i]'s: one native
   * call per batch, on `threads` native threads (queue.ts asks for one while an ingest runs, so the background
   * leaves the writer its core, and INSERT_THREADS when catching up). A call that grows the index always
   * asks for INSERT_THREADS: usearch sizes its per-thread search contexts at growth, and an index grown by a
   * one-thread call would serialise later two-thread calls on one context until it grows again.
   */
  setMany(keys: readonly number[], rows: Float32Array, threads = 1): void {
    if (rows.length !== keys.length * this.dim)
      throw new RangeError(`${rows.length} values for ${keys.length} vectors of ${this.dim}`);
    if (keys.length === 0) return;
    rows = unitRows(rows, this.dim);
    if (!this.sharedRows) this.exact.setMany(keys, rows);
    const big = new BigUint64Array(keys.length);
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      big[i] = BigInt(k);
      if (!this.keys.has(k)) continue;
      // A key of the mapped base is shadowed (the base cannot change); one of the writable index is replaced.
      if (this.index.contains(big[i]!)) this.index.remove(big[i]!);
      else this.shadowed.add(k);
    }
    const grows = this.index.size() + keys.length >= this.index.capacity();
    this.index.add(big, rows, grows ? INSERT_THREADS : Math.min(threads, INSERT_THREADS));
    for (const k of keys) this.keys.add(k);
  }

  /**
   * Frees the native memory of every vector now and leaves the set empty: for a set nobody will search again
   * (the base closed, or replaced by a re-embedding pass). Dropping the object is not enough: usearch's graph
   * lives outside the JS heap and its binding does not tell V8 about it, so V8 collects the small wrapper (and
   * frees the graph) only whenever a major collection happens to come; a reopen measured at 200,000 claims held
   * the closed base's indexes beside the new ones. Loading an empty index is the binding's one way to reset an
   * index in place (the file is written aside and removed at once).
   */
  release(): void {
    const held = [this.index, this.base].filter((ix) => ix !== null && ix.size() > 0);
    if (held.length > 0) {
      const dir = mkdtempSync(join(tmpdir(), 'kb-vectors-'));
      try {
        const empty = join(dir, 'empty.usearch');
        VectorSet.make(this.dim).save(empty);
        for (const ix of held) ix!.load(empty);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
    this.base = null;
    this.shadowed.clear();
    this.keys.clear();
    if (!this.sharedRows) this.exact.clear();
  }

  /** Drops every vector. */
  clear(): void {
    this.release();
    this.index = VectorSet.make(this.dim);
    this.base = null;
    this.shadowed.clear();
    this.keys.clear();
  }

  /** Keys held, ascending. */
  keyList(): Int32Array {
    return this.keys.list();
  }

  /**
   * Writes the vectors to `path` (usearch's file format) and returns the files written, the exact rows
   * included (`.rowkeys`, `.rows`). Loaded from a file (load()), the base is that file already: it is linked to
   * `path` (copied where a link cannot be made), and what was added since goes beside it (`.delta`, and
   * `.shadowed` for base keys replaced since).
   */
  save(path: string): string[] {
    const rowFiles = this.saveRows(path);
    if (this.base === null) {
      this.index.save(path);
      return [path, ...rowFiles];
    }
    // The mapped file itself, unless something replaced or removed it since the load (another handle's close):
    // then the mapping, which keeps the loaded bytes, is written out.
    const same = existsSync(this.basePath) && statSync(this.basePath).ino === this.baseInode;
    if (!same) this.base.save(path);
    else
      try {
        linkSync(this.basePath, path);
      } catch {
        copyFileSync(this.basePath, path);
      }
    const files = [path, ...rowFiles];
    if (this.index.size() > 0) {
      this.index.save(`${path}.delta`);
      files.push(`${path}.delta`);
    }
    if (this.shadowed.size > 0) {
      writeFileSync(`${path}.shadowed`, Int32Array.from(this.shadowed));
      files.push(`${path}.shadowed`);
    }
    return files;
  }

  /** The exact rows beside `path`: `.rowkeys` (the keys that have one, ascending) and `.rows` (theirs, in order). */
  private saveRows(path: string): string[] {
    if (this.sharedRows) return [];
    const all = this.keys.list();
    const keys = all.filter((k) => this.exact.has(k));
    if (keys.length === 0) return [];
    writeFileSync(`${path}.rowkeys`, keys);
    this.exact.save(`${path}.rows`, keys);
    return [`${path}.rowkeys`, `${path}.rows`];
  }

  /**
   * Replaces the contents with the vectors saved at `path`, holding `keys`. The file is mapped (usearch's
   * `view`), not read into memory: 45-51 ms against 200-470 ms for `load` at 83,332 vectors (100,000 claims),
   * and an open pays it at every reopen. The mapped index cannot take inserts, so new vectors go to a writable
   * index beside it and both are searched; a re-embedding pass (queue.ts) builds one fresh index again. On
   * Windows, where a mapped file cannot be replaced by the next save, it is read into memory instead.
   */
  load(path: string, keys: Int32Array): void {
    checkIndexFile(path);
    const base = VectorSet.make(this.dim);
    if (process.platform === 'win32') base.load(path);
    else base.view(path);
    const index = VectorSet.make(this.dim);
    if (existsSync(`${path}.delta`)) index.load(`${path}.delta`);
    const shadowed = existsSync(`${path}.shadowed`) ? readFileSync(`${path}.shadowed`) : Buffer.alloc(0);
    const shadowedKeys = new Int32Array(
      shadowed.buffer.slice(shadowed.byteOffset, shadowed.byteOffset + shadowed.byteLength),
    );
    const held = base.size() + index.size() - shadowedKeys.length;
    if (held !== keys.length) throw new Error(`${path} holds ${held} vectors, ${keys.length} keys`);
    const rowKeys = existsSync(`${path}.rows`) ? int32s(readFileSync(`${path}.rowkeys`)) : new Int32Array(0);
    // An i8 index ranks through its exact rows (its own inner products are integers, not similarities): one
    // without them is refused, and the caller rebuilds (persist.ts). An f16 one (earlier code) has none.
    const i8 = (f: string) => existsSync(f) && bytesPerValue(f, this.dim) === 1;
    // Shared rows are the owner's to check (two-tier.ts: keys deleted since the insert keep an entry, without a row).
    if (!this.sharedRows) {
      if ((i8(path) && rowKeys.length < keys.length) || (i8(`${path}.delta`) && rowKeys.length < index.size()))
        throw new Error(`${path}: an i8 index without the exact rows of its vectors`);
      const exact = new ExactRows(this.dim);
      // Left in their file, as the index is: read when a search re-ranks (exact-rows.ts).
      if (rowKeys.length > 0) exact.load(`${path}.rows`, rowKeys, { keepInFile: true });
      this.exact = exact;
    }
    this.base = base;
    this.basePath = path;
    this.baseInode = statSync(path).ino;
    this.index = index;
    this.shadowed = new Set(shadowedKeys);
    this.keys.clear();
    for (const k of keys) this.keys.add(k);
  }

  /** The n nearest keys with cosine similarity, best first (from the mapped base and the writable index). */
  nearest(q: Float32Array, n: number): { key: number; similarity: number }[] {
    if (this.keys.size === 0 || n <= 0) return [];
    const v = unitRows(q, this.dim);
    const out: { key: number; similarity: number }[] = [];
    const take = (ix: InstanceType<typeof usearch.Index>, want: number, skip: Set<number> | null) => {
      if (ix.size() === 0) return;
      const r = ix.search(v, Math.min(want, ix.size()), 1);
      for (let i = 0; i < r.keys.length; i++) {
        const key = Number(r.keys[i]);
        if (skip?.has(key)) continue;
        // Re-ranked by the exact row; a key loaded from an f16 index of earlier code has the index's similarity.
        const similarity = this.exact.has(key) ? this.exact.similarity(v, key) : 1 - r.distances[i]!;
        out.push({ key, similarity });
      }
    };
    take(this.index, n, null);
    if (this.base === null) return out.sort((a, b) => b.similarity - a.similarity);
    // Shadowed keys of the base are found there too, with their old vectors: asked for beyond n, then dropped.
    take(this.base, n + this.shadowed.size, this.shadowed);
    return out.sort((a, b) => b.similarity - a.similarity).slice(0, n);
  }
}
