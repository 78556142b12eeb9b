// The surrogate that chooses which offspring get scored: a k-nearest-neighbour regression on Tanimoto
// similarity of Morgan fingerprints (radius 2, folded to 1024 bits), trained on every call so far. A kNN
// Tanimoto model is the nonparametric cousin of the Tanimoto-kernel GP used for molecular BO (Griffiths et al.,
// GAUCHE, NeurIPS 2023) and of the similarity models of active-learning virtual screens (Graff et al., Chem. Sci.
// 2021): cheap enough to refit at every batch, with an uncertainty (how far a candidate is from anything
// scored) that keeps exploration alive.
import type { Fingerprint } from '../chem/fingerprint.js';
import { parseSmiles, type Mol, type RDKit } from '../rdkit.js';

const BITS = 1024;
const MORGAN = JSON.stringify({ radius: 2, nBits: BITS });

/** RDKit's Morgan radius-2 bit vector, 1024 bits (one WebAssembly call: several times faster than in JS). */
export function molFingerprint(mol: Mol): Fingerprint {
  const u = mol.get_morgan_fp_as_uint8array(MORGAN) as Uint8Array;
  return new Uint32Array(u.buffer.slice(u.byteOffset, u.byteOffset + u.byteLength));
}

export function fingerprintOf(rd: RDKit, smiles: string): Fingerprint | null {
  const mol = parseSmiles(rd, smiles);
  if (!mol) return null;
  try {
    return molFingerprint(mol);
  } finally {
    mol.delete();
  }
}

export interface Prediction {
  /** Similarity-weighted mean score of the nearest scored molecules. */
  mean: number;
  /** Highest similarity to a scored molecule (1: scored before or an identical fingerprint). */
  nearest: number;
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) >>> 0;
}

const WORDS = BITS / 32;

/** A growable list of row numbers (one bit's postings). */
class Postings {
  rows = new Int32Array(16);
  length = 0;
  push(row: number): void {
    if (this.length === this.rows.length) {
      const b = new Int32Array(this.rows.length * 2);
      b.set(this.rows);
      this.rows = b;
    }
    this.rows[this.length++] = row;
  }
}

/**
 * Exact k-nearest neighbours by Tanimoto over every molecule added. A Morgan fingerprint sets ~40 of its 1,024
 * bits, so the intersections come from an inverted index (bit -> rows that set it): a query touches its bits'
 * postings, about 40 x n x 40/1024 additions, instead of n x 32 word popcounts; then one pass in row order
 * turns counts into similarities and keeps the k best (ties: the earlier row), exactly as a full scan would.
 */
export class KnnSurrogate {
  private readonly postings = Array.from({ length: BITS }, () => new Postings());
  private counts = new Int32Array(1024);
  private ys = new Float64Array(1024);
  /** Intersection counts of the current query, per row (zeroed after each query). */
  private inter = new Int32Array(1024);
  private n = 0;

  constructor(
    private readonly k = 10,
    /** Similarities are raised to this power as weights, so close neighbours dominate. */
    private readonly power = 3,
  ) {}

  get size(): number {
    return this.n;
  }

  add(fp: Fingerprint, y: number): void {
    if (this.n === this.ys.length) {
      const grow = <T extends Int32Array | Float64Array>(a: T): T => {
        const b = new (a.constructor as new (n: number) => T)(a.length * 2);
        b.set(a);
        return b;
      };
      this.counts = grow(this.counts);
      this.ys = grow(this.ys);
      this.inter = grow(this.inter);
    }
    let c = 0;
    for (let w = 0; w < WORDS; w++) {
      let x = fp[w]!;
      c += popcount(x);
      while (x !== 0) {
        const low = x & -x;
        this.postings[w * 32 + 31 - Math.clz32(low)]!.push(this.n);
        x ^= low;
      }
    }
    this.counts[this.n] = c;
    this.ys[this.n] = y;
    this.n++;
  }

  predict(fp: Fingerprint): Prediction {
    const k = this.k;
    const n = this.n;
    const inter = this.inter;
    let own = 0;
    for (let w = 0; w < WORDS; w++) {
      let x = fp[w]!;
      while (x !== 0) {
        const low = x & -x;
        const p = this.postings[w * 32 + 31 - Math.clz32(low)]!;
        const rows = p.rows;
        for (let j = 0; j < p.length; j++) inter[rows[j]!]!++;
        own++;
        x ^= low;
      }
    }
    // The k largest similarities, kept in a small sorted buffer (descending).
    const topS = new Float64Array(k).fill(-1);
    const topY = new Float64Array(k);
    const counts = this.counts;
    for (let i = 0; i < n; i++) {
      const both = inter[i]!;
      inter[i] = 0;
      const union = own + counts[i]! - both;
      const s = union === 0 ? 0 : both / union;
      if (s <= topS[k - 1]!) continue;
      let j = k - 1;
      while (j > 0 && topS[j - 1]! < s) {
        topS[j] = topS[j - 1]!;
        topY[j] = topY[j - 1]!;
        j--;
      }
      topS[j] = s;
      topY[j] = this.ys[i]!;
    }
    let num = 0;
    let den = 0;
    for (let j = 0; j < k; j++) {
      if (topS[j]! < 0) break;
      const w = topS[j]! ** this.power + 1e-9;
      num += w * topY[j]!;
      den += w;
    }
    return { mean: den > 0 ? num / den : 0, nearest: Math.max(0, topS[0]!) };
  }
}
