// Morgan radius-2 fingerprints folded to 2048 bits (ECFP4-like; RDKit folds environment ids modulo the size),
// and Tanimoto similarity on them.
const FP_BITS = 2048;

export type Fingerprint = Uint32Array;

export function foldMorgan(ids: Iterable<number>, nBits = FP_BITS): Fingerprint {
  const fp = new Uint32Array(nBits / 32);
  for (const id of ids) {
    const b = id % nBits;
    fp[b >>> 5]! |= 1 << (b & 31);
  }
  return fp;
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) >>> 0;
}

const bitCounts = new WeakMap<Fingerprint, number>();

/** Number of set bits (cached per fingerprint object). */
function bitCount(fp: Fingerprint): number {
  let c = bitCounts.get(fp);
  if (c === undefined) {
    c = 0;
    for (let i = 0; i < fp.length; i++) c += popcount(fp[i]!);
    bitCounts.set(fp, c);
  }
  return c;
}

export function tanimoto(a: Fingerprint, b: Fingerprint): number {
  let inter = 0;
  for (let i = 0; i < a.length; i++) inter += popcount(a[i]! & b[i]!);
  const union = bitCount(a) + bitCount(b) - inter;
  return union === 0 ? 0 : inter / union;
}
