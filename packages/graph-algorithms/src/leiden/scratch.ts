// Scratch memory for one thread of a leiden() call, handed out again to every level of every iteration. Fresh typed
// arrays per level cost a page fault per touched page and a collection later; on sparse graphs with weak structure
// the aggregate levels keep most of the edges (100,000 nodes and 1.67M entries aggregate to 32,000 nodes and 1.53M,
// then 10,000 and 1.47M), so that was megabytes per level, hundreds of times over.
// Contents are stale between uses: every caller initialises what it reads.

type ScratchArray = Int32Array | Float64Array | Uint8Array;

export class LeidenScratch {
  private readonly arrays = new Map<string, ScratchArray>();

  /** The Int32Array named `name`, `length` long (grown when a use needs more). */
  int32(name: string, length: number): Int32Array {
    return this.take(name, length, Int32Array);
  }

  float64(name: string, length: number): Float64Array {
    return this.take(name, length, Float64Array);
  }

  uint8(name: string, length: number): Uint8Array {
    return this.take(name, length, Uint8Array);
  }

  private take<T extends ScratchArray>(name: string, length: number, kind: new (length: number) => T): T {
    let a = this.arrays.get(name);
    if (!(a instanceof kind) || a.length < length) {
      a = new kind(length);
      this.arrays.set(name, a);
    }
    return a.subarray(0, length) as T;
  }
}
