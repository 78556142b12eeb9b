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
/** Bits set in each 16-bit value: two lookups per word beat the arithmetic popcount in the inner loop. */
const POP16 = (() => {
  const t = new Uint8Array(65536);
  for (let i = 1; i < 65536; i++) t[i] = (i & 1) + t[i >>> 1]!;
  return t;
})();

export class KnnSurrogate {
  /** Fingerprints row by row (WORDS words each), their bit counts and scores: one pass over flat arrays. */
  private rows = new Uint32Array(WORDS * 1024);
  private counts = new Int32Array(1024);
  private ys = new Float64Array(1024);
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
      const grow = <T extends Uint32Array | Int32Array | Float64Array>(a: T, len: number): T => {
        const b = new (a.constructor as new (n: number) => T)(len);
        b.set(a);
        return b;
      };
      this.rows = grow(this.rows, this.rows.length * 2);
      this.counts = grow(this.counts, this.counts.length * 2);
      this.ys = grow(this.ys, this.ys.length * 2);
    }
    let c = 0;
    for (let w = 0; w < WORDS; w++) {
      this.rows[this.n * WORDS + w] = fp[w]!;
      c += popcount(fp[w]!);
    }
    this.counts[this.n] = c;
    this.ys[this.n] = y;
    this.n++;
  }

  predict(fp: Fingerprint): Prediction {
    const k = this.k;
    const rows = this.rows;
    let own = 0;
    for (let w = 0; w < WORDS; w++) own += popcount(fp[w]!);
    // The k largest similarities, kept in a small sorted buffer (descending).
    const topS = new Float64Array(k).fill(-1);
    const topY = new Float64Array(k);
    const T = POP16;
    for (let i = 0; i < this.n; i++) {
      let inter = 0;
      const base = i * WORDS;
      for (let w = 0; w < WORDS; w++) {
        const x = fp[w]! & rows[base + w]!;
        inter += T[x & 0xffff]! + T[x >>> 16]!;
      }
      const union = own + this.counts[i]! - inter;
      const s = union === 0 ? 0 : inter / union;
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
