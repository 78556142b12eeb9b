// Binary codes of vectors (256 sign bits each, after a random rotation) and a flat Hamming scan over them, to find
// candidates that the exact rows (exact-rows.ts) then rank: the codes are cheap to make (a few µs a vector, no
// graph to insert into) and the scan touches 32 bytes a vector (hamming.wat). Charikar 2002 (sign of random
// projections, SimHash); the rotation is the structured one of Ailon & Chazelle 2006 (random signs, then a
// Walsh-Hadamard transform), which spreads a vector's weight over every coordinate so that each sign bit carries
// about as much as the others. Measured with bench/search-ann.ts at 166,664 vectors: without it recall@100 0.295
// where one round gives 0.762 (K 2,000); two and three rounds gave no more (0.748, 0.752) for 9.1 and 11.4 µs a
// code against 5.3.
import { HAMMING_WASM } from './hamming-wasm.js';

/** Bits per code (four 64-bit words: hamming.wat's scan). */
export const CODE_BITS = 256;
const CODE_BYTES = CODE_BITS / 8;
const ROUNDS = 1;

/** The smallest power of two at least `n`. */
function pow2(n: number): number {
  let p = 1;
  while (p < n) p *= 2;
  return p;
}

/** Random ±1 signs, `rounds` × `len`, from a fixed seed (codes saved by one process are read by the next). */
function rotationSigns(len: number, rounds: number): Float32Array {
  const out = new Float32Array(rounds * len);
  // xorshift32: any fixed sequence of balanced signs serves.
  let x = 0x9e3779b9;
  for (let i = 0; i < out.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 1 ? 1 : -1;
  }
  return out;
}

/** In place, unnormalised: the signs of its result are what a code keeps. */
function walshHadamard(v: Float32Array): void {
  for (let h = 1; h < v.length; h *= 2)
    for (let i = 0; i < v.length; i += 2 * h)
      for (let j = i; j < i + h; j++) {
        const a = v[j]!;
        const b = v[j + h]!;
        v[j] = a + b;
        v[j + h] = a - b;
      }
}

/** Makes the codes of vectors of `dim` values: padded to a power of two (at least CODE_BITS), rotated, the first CODE_BITS signs. */
export class SignCoder {
  private readonly len: number;
  private readonly signs: Float32Array;
  private readonly work: Float32Array;
  constructor(
    readonly dim: number,
    readonly rotate = true,
    readonly rounds = ROUNDS,
  ) {
    this.len = pow2(Math.max(dim, CODE_BITS));
    this.signs = rotationSigns(this.len, rounds);
    this.work = new Float32Array(this.len);
  }

  /** `rows[at .. at + dim)` rotated (padded to a power of two): a view of a buffer the next call overwrites. */
  rotated(rows: Float32Array, at: number): Float32Array {
    const w = this.work;
    w.fill(0);
    w.set(rows.subarray(at, at + this.dim));
    if (this.rotate)
      for (let r = 0; r < this.rounds; r++) {
        const s = r * this.len;
        for (let i = 0; i < this.len; i++) w[i]! *= this.signs[s + i]!;
        walshHadamard(w);
      }
    return w;
  }

  /** Writes the code of `rows[at .. at + dim)` to `out[to .. to + CODE_BYTES)`. */
  encode(rows: Float32Array, at: number, out: Uint8Array, to: number): void {
    signBits(this.rotated(rows, at), out, to);
  }
}

/** The code of a rotated vector (SignCoder.rotated): its first CODE_BITS signs, a bit set where positive. */
export function signBits(w: Float32Array, out: Uint8Array, to: number): void {
  for (let b = 0; b < CODE_BYTES; b++) {
    let byte = 0;
    for (let i = 0; i < 8; i++) if (w[b * 8 + i]! > 0) byte |= 1 << i;
    out[to + b] = byte;
  }
}

/** The k-th largest value of `a` (1-based; a is reordered): Hoare's selection, expected linear time. */
export function kthLargest(a: Float32Array | Float64Array, k: number): number {
  let lo = 0;
  let hi = a.length - 1;
  const want = k - 1;
  while (lo < hi) {
    const pivot = a[(lo + hi) >>> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! > pivot) i++;
      while (a[j]! < pivot) j--;
      if (i <= j) {
        const x = a[i]!;
        a[i++] = a[j]!;
        a[j--] = x;
      }
    }
    if (want <= j) hi = j;
    else if (want >= i) lo = i;
    else return a[want]!;
  }
  return a[want]!;
}

/** The parts of the WebAssembly JS API used here (@types/node 20 does not declare them). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: unknown };
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

interface ScanExports {
  memory: WasmMemory;
  scan(codes: number, n: number, q: number, out: number, hist: number): void;
  collect(dist: number, n: number, t: number, room: number, out: number): number;
  score(codes: number, cand: number, m: number, table: number, out: number): void;
}

let compiled: object | null = null;

const QUERY_AT = 0;
const HIST_AT = 64;
const CODES_AT = HIST_AT + 256 * 4;
const PAGE = 65536;

/**
 * Codes by dense key in one WebAssembly memory: key k's at CODES_AT + 32k. A key without a code has zeros there
 * and is found like any other; the caller drops it (BinaryVectorSet.nearest). The scan's scratch (a byte per
 * code, then a u32 per candidate, the score tables and a score per candidate) lies after the last code.
 */
export class CodeTable {
  private readonly kernels: ScanExports;
  /** Keys below this have a slot. */
  private slots = 0;

  constructor() {
    compiled ??= new wasm.Module(Buffer.from(HAMMING_WASM, 'base64'));
    this.kernels = new wasm.Instance(compiled).exports as ScanExports;
  }

  get length(): number {
    return this.slots;
  }

  private ensure(bytes: number): Uint8Array {
    const m = this.kernels.memory;
    if (bytes > m.buffer.byteLength) m.grow(Math.ceil((bytes - m.buffer.byteLength) / PAGE));
    return new Uint8Array(m.buffer);
  }

  /** The bytes of key `k`'s code, to write into (the slots grow to hold it; valid until the next call). */
  slot(k: number): Uint8Array {
    if (k >= this.slots) {
      this.ensure(CODES_AT + (k + 1) * CODE_BYTES);
      this.slots = k + 1;
    }
    return new Uint8Array(this.kernels.memory.buffer, CODES_AT + k * CODE_BYTES, CODE_BYTES);
  }

  /** keys[i]'s code is codes[i × CODE_BYTES ...], for every i: one view of the memory, not one per key. */
  setMany(keys: ArrayLike<number>, codes: Uint8Array): void {
    let max = -1;
    for (let i = 0; i < keys.length; i++) if (keys[i]! > max) max = keys[i]!;
    if (max < 0) return;
    if (max >= this.slots) {
      this.ensure(CODES_AT + (max + 1) * CODE_BYTES);
      this.slots = max + 1;
    }
    const m = new Uint8Array(this.kernels.memory.buffer);
    // Runs of consecutive keys (a whole lane's, loaded at open) copied at once.
    for (let i = 0; i < keys.length; ) {
      let j = i + 1;
      while (j < keys.length && keys[j] === keys[i]! + (j - i)) j++;
      m.set(codes.subarray(i * CODE_BYTES, j * CODE_BYTES), CODES_AT + keys[i]! * CODE_BYTES);
      i = j;
    }
  }

  /** Every slot's code, end to end (a view: valid until the next call). */
  bytes(): Uint8Array {
    return new Uint8Array(this.kernels.memory.buffer, CODES_AT, this.slots * CODE_BYTES);
  }

  /** Replaces every code with `codes` (slots × CODE_BYTES bytes). */
  setBytes(codes: Uint8Array): void {
    this.slots = codes.length / CODE_BYTES;
    this.ensure(CODES_AT + codes.length).set(codes, CODES_AT);
  }

  clear(): void {
    this.slots = 0;
  }

  /**
   * Candidates for a query: the `k1` codes nearest `code` by Hamming distance (ties at the last distance taken in
   * key order), then of those the `k2` whose signs best match `rotated` (the query's rotated values, not only
   * their signs: an asymmetric distance, much closer to the inner product than the Hamming one), in no order.
   * Cost: a pass over every code and one over a byte per code, then 32 table look-ups per candidate. Only the
   * slots from `from` on are scanned (the two-tier set's keys its HNSW does not cover yet, two-tier.ts).
   */
  nearest(code: Uint8Array, rotated: Float32Array, k1: number, k2: number, from = 0): Int32Array {
    const n = this.slots - from;
    if (n <= 0 || k1 <= 0 || k2 <= 0) return new Int32Array(0);
    k1 = Math.min(k1, n);
    const codesAt = CODES_AT + from * CODE_BYTES;
    const distAt = CODES_AT + this.slots * CODE_BYTES;
    const candAt = (distAt + n + 3) & ~3;
    const tableAt = candAt + k1 * 4;
    const scoreAt = tableAt + CODE_BITS * 32 * 4;
    const mem = this.ensure(scoreAt + k1 * 4);
    mem.set(code, QUERY_AT);
    const buf = this.kernels.memory.buffer;
    const hist = new Uint32Array(buf, HIST_AT, 256);
    hist.fill(0);
    this.kernels.scan(codesAt, n, QUERY_AT, distAt, HIST_AT);
    // The smallest distance t with at least k1 codes at or below it: every code below t, and enough at t.
    let below = 0;
    let t = 0;
    while (t < 255 && below + hist[t]! < k1) below += hist[t++]!;
    const m = this.kernels.collect(distAt, n, t, k1 - below, candAt);
    // Indices relative to `from`: scored against the shifted codes, made keys on the way out.
    const cand = new Int32Array(buf, candAt, m);
    if (m <= k2) return cand.map((i) => i + from);
    // table[b][v]: the sum of the rotated values whose bit is set in byte value v at byte b (a score up to a
    // constant: the sum over set bits of q, which orders codes as sum of q times ±1 does).
    const table = new Float32Array(buf, tableAt, 32 * 256);
    for (let b = 0; b < 32; b++) {
      const row = b * 256;
      table[row] = 0;
      for (let j = 0, half = 1; j < 8; j++, half *= 2) {
        const x = rotated[b * 8 + j]!;
        for (let v = half; v < 2 * half; v++) table[row + v] = table[row + v - half]! + x;
      }
    }
    this.kernels.score(codesAt, candAt, m, tableAt, scoreAt);
    const scores = new Float32Array(buf, scoreAt, m);
    const bar = kthLargest(scores.slice(), k2);
    const out = new Int32Array(k2);
    let taken = 0;
    for (let i = 0; i < m && taken < k2; i++) if (scores[i]! > bar) out[taken++] = cand[i]! + from;
    for (let i = 0; i < m && taken < k2; i++) if (scores[i] === bar) out[taken++] = cand[i]! + from;
    return out;
  }
}
