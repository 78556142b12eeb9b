// Slot-sized typed arrays lent to one synchronous run of an operator and given back when it ends. A columnar
// aggregation over a scan needs a selection vector and a group id per slot on every run (and a weight per row
// under an OPTIONAL MATCH); fresh arrays of a few hundred kilobytes are fresh pages, which on some machines cost
// more to fault in than the loops that fill them (measured: 12% of a filtered aggregation's samples on allocating
// its selection vector alone). Contents are stale: a borrower writes what it reads. A borrower that finds none
// free (a nested run) gets a fresh one.

type Lendable = Int32Array | Float64Array;

const free = { i32: [] as Int32Array[], f64: [] as Float64Array[] };
/** Arrays of each kind kept for lending at most: a grouped run borrows up to five at once (rows, group ids, table). */
const KEEP = 6;

function borrow<T extends Lendable>(pool: T[], n: number, make: (n: number) => T): T {
  for (let i = 0; i < pool.length; i++) {
    const a = pool[i]!;
    if (a.length >= n) {
      pool.splice(i, 1);
      return a;
    }
  }
  return make(n);
}

/** An Int32Array of at least `n` elements (longer when a lent one is): give it back with `giveBack`. */
export function borrowInt32(n: number): Int32Array {
  return borrow(free.i32, n, (k) => new Int32Array(k));
}

/** A Float64Array of at least `n` elements: give it back with `giveBack`. */
export function borrowFloat64(n: number): Float64Array {
  return borrow(free.f64, n, (k) => new Float64Array(k));
}

/** Gives back an array from a borrow (a whole array of its own buffer): kept for the next borrower, largest first. */
export function giveBack(a: Lendable): void {
  if (a.buffer instanceof SharedArrayBuffer || a.byteOffset !== 0 || a.byteLength !== a.buffer.byteLength) return;
  const pool: Lendable[] = a instanceof Int32Array ? free.i32 : free.f64;
  pool.push(a);
  pool.sort((x, y) => y.length - x.length);
  if (pool.length > KEEP) pool.length = KEEP;
}

/*
 * A lending scope: per-group accumulators (counts, sums) are read through closures until the groups' rows are
 * made, so they cannot be given back where they are made. Inside `lendingScope(f)` they are lent and given back
 * when f returns; outside one they are fresh, so code that keeps them past its call stays correct.
 */
let scope: Lendable[] | undefined;

/** Runs f; the arrays `scopedFloat64` and `zeroedFloat64` lend meanwhile are given back when it returns or throws. */
export function lendingScope<T>(f: () => T): T {
  const outer = scope;
  const mine: Lendable[] = [];
  scope = mine;
  try {
    return f();
  } finally {
    scope = outer;
    for (const a of mine) giveBack(a);
  }
}

/** A Float64Array of n elements, stale: lent until the enclosing lendingScope ends, or fresh outside one. */
export function scopedFloat64(n: number): Float64Array {
  if (!scope) return new Float64Array(n);
  const a = borrowFloat64(n);
  scope.push(a);
  return a.length === n ? a : a.subarray(0, n);
}

/** A Float64Array of n zeros: lent until the enclosing lendingScope ends, or fresh outside one. */
export function zeroedFloat64(n: number): Float64Array {
  const a = scopedFloat64(n);
  if (scope) a.fill(0);
  return a;
}
