// Approximate nearest neighbours over unit vectors, keyed by dense integers (facts, entities). usearch
// (Unum's HNSW, Malkov & Yashunin 2018) is chosen over hnswlib-node: it ships prebuilt binaries for Linux,
// macOS and Windows inside the npm package (no node-gyp build and no download at install), grows without a
// fixed capacity, removes keys, saves and loads, and is actively released; hnswlib-node must compile its
// addon at install and needs max_elements up front.
import usearch from 'usearch';

export class VectorSet {
  private index: InstanceType<typeof usearch.Index>;
  private readonly keys = new Set<number>();

  constructor(readonly dim: number) {
    this.index = VectorSet.make(dim);
  }

  // Build and search effort (HNSW's ef) at 40: measured here, usearch's defaults (128/64) cost 3-4x the time
  // per insert for no recall the over-fetching search needs (it asks for 3k to 50+ neighbours).
  private static make(dim: number) {
    return new usearch.Index({
      metric: usearch.MetricKind.Cos,
      dimensions: dim,
      quantization: usearch.ScalarKind.F32,
      connectivity: 16,
      expansion_add: 128,
      expansion_search: 64,
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
    if (v.length !== this.dim) throw new RangeError(`vector of length ${v.length}, expected ${this.dim}`);
    if (this.keys.has(key)) this.index.remove(BigInt(key));
    this.index.add(BigInt(key), v, 1);
    this.keys.add(key);
  }

  /** Drops every vector. */
  clear(): void {
    this.index = VectorSet.make(this.dim);
    this.keys.clear();
  }

  /** Keys held, ascending. */
  keyList(): Int32Array {
    return Int32Array.from(this.keys).sort();
  }

  /** Writes the index to `path` (usearch's file format). */
  save(path: string): void {
    this.index.save(path);
  }

  /** Replaces the contents with the index saved at `path`, holding `keys`. */
  load(path: string, keys: Int32Array): void {
    const index = VectorSet.make(this.dim);
    index.load(path);
    if (index.size() !== keys.length) throw new Error(`${path} holds ${index.size()} vectors, ${keys.length} keys`);
    this.index = index;
    this.keys.clear();
    for (const k of keys) this.keys.add(k);
  }

  /** The n nearest keys with cosine similarity, best first. */
  nearest(q: Float32Array, n: number): { key: number; similarity: number }[] {
    if (this.keys.size === 0 || n <= 0) return [];
    const r = this.index.search(q, Math.min(n, this.keys.size), 1);
    const out: { key: number; similarity: number }[] = [];
    for (let i = 0; i < r.keys.length; i++) out.push({ key: Number(r.keys[i]), similarity: 1 - r.distances[i]! });
    return out;
  }
}
