// Fixed-width rows of numbers keyed by string, held in a few large typed arrays (chunks of ROWS_PER_CHUNK rows)
// with a Map from key to row number, rather than one small typed array per key. A typed array of its own per
// key costs, beside its values, a JSArrayBuffer and a JSTypedArray on the V8 heap and a separately allocated
// backing store with its bookkeeping outside it (~200-300 bytes each): the local embedder's 30,000 context
// vectors of 1 KB took ~41 MB resident that way. Chunks rather than one growing array: a grown copy would hold
// twice the rows for a moment and leave up to half the capacity unused; a chunk wastes at most its own unused
// rows (here 256 KB) and growing never copies.
type Typed = Float32Array | Int32Array;

/** Rows per chunk: 256 KB chunks for the embedder's 256-float rows, few enough arrays to cost nothing apiece. */
const ROWS_PER_CHUNK = 256;

export class RowStore<A extends Typed> {
  private readonly rowOf = new Map<string, number>();
  private readonly chunks: A[] = [];

  constructor(
    readonly width: number,
    private readonly make: (length: number) => A,
  ) {}

  get size(): number {
    return this.rowOf.size;
  }

  /** The row number of `key`, or -1. */
  rowIndex(key: string): number {
    return this.rowOf.get(key) ?? -1;
  }

  /** The chunk holding row `row`; its values start at offset(row). */
  chunk(row: number): A {
    return this.chunks[(row / ROWS_PER_CHUNK) | 0]!;
  }

  offset(row: number): number {
    return (row % ROWS_PER_CHUNK) * this.width;
  }

  /** The row of `key`, made (zeros) if it has none. */
  ensure(key: string): number {
    const had = this.rowOf.get(key);
    if (had !== undefined) return had;
    const row = this.rowOf.size;
    if (row % ROWS_PER_CHUNK === 0) this.chunks.push(this.make(ROWS_PER_CHUNK * this.width));
    this.rowOf.set(key, row);
    return row;
  }

  /** Row `row`'s values as a view (no copy): for reading only while no row is added. */
  view(row: number): A {
    const o = this.offset(row);
    return this.chunk(row).subarray(o, o + this.width) as A;
  }

  /** Keys in row order. */
  keys(): IterableIterator<string> {
    return this.rowOf.keys();
  }

  has(key: string): boolean {
    return this.rowOf.has(key);
  }

  clear(): void {
    this.rowOf.clear();
    this.chunks.length = 0;
  }

  /**
   * Replaces every row: `keys[i]`'s values are values[i × width ...]. The whole chunks are views of `values`, not
   * copies (a restored learner's context vectors: 100 MB at a million claims); the last, part-filled one is copied
   * into a chunk of its own, as rows added later go there. `values` must be the store's from then on.
   */
  adopt(keys: readonly string[], values: A): void {
    this.clear();
    for (let i = 0; i < keys.length; i++) this.rowOf.set(keys[i]!, i);
    if (this.rowOf.size !== keys.length) throw new RangeError('adopt: keys repeat');
    const per = ROWS_PER_CHUNK * this.width;
    const whole = Math.floor(keys.length / ROWS_PER_CHUNK);
    for (let c = 0; c < whole; c++) this.chunks.push(values.subarray(c * per, (c + 1) * per) as A);
    if (keys.length % ROWS_PER_CHUNK !== 0) {
      const last = this.make(per);
      last.set(values.subarray(whole * per, keys.length * this.width));
      this.chunks.push(last);
    }
  }
}
