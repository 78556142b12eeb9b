// Scratch memory for one leiden() call, handed out again to every level of every iteration. Fresh typed arrays
// per level cost a page fault per touched page and a collection later; on sparse graphs with weak structure
// the aggregate levels keep most of the edges (100,000 nodes and 1.67M entries aggregate to 32,000 nodes and
// 1.53M, then 10,000 and 1.47M), so that was megabytes per level, hundreds of times over.
// Contents are stale between uses: every caller initialises what it reads.

export class LeidenScratch {
  private readonly int32s = new Map<string, Int32Array>();
  private readonly float64s = new Map<string, Float64Array>();
  private readonly uint8s = new Map<string, Uint8Array>();

  /** The Int32Array named `name`, `length` long (grown when a use needs more). */
  int32(name: string, length: number): Int32Array {
    let a = this.int32s.get(name);
    if (a === undefined || a.length < length) {
      a = new Int32Array(length);
      this.int32s.set(name, a);
    }
    return a.subarray(0, length);
  }

  float64(name: string, length: number): Float64Array {
    let a = this.float64s.get(name);
    if (a === undefined || a.length < length) {
      a = new Float64Array(length);
      this.float64s.set(name, a);
    }
    return a.subarray(0, length);
  }

  uint8(name: string, length: number): Uint8Array {
    let a = this.uint8s.get(name);
    if (a === undefined || a.length < length) {
      a = new Uint8Array(length);
      this.uint8s.set(name, a);
    }
    return a.subarray(0, length);
  }
}
