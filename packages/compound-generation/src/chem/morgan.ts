// Unhashed Morgan (ECFP-like) environment ids, as RDKit's GetMorganFingerprint(mol, radius) computes them with
// its default connectivity invariants. RDKit's WebAssembly build only exposes folded bit vectors, and the SA
// score's fragment table is keyed by the full 32-bit ids, so the id computation is reproduced here:
// - atom invariant: boost-style hash of [atomic number, total degree, total H count, formal charge,
//   isotope mass delta, (1 if the atom is in a ring)];
// - each layer: hash(layer, own invariant, sorted (bond type, neighbour invariant) pairs);
// - an environment (the set of bonds it covers) seen before, at this or an earlier layer, is not counted again,
//   and its atom stops growing.
// The ids are checked against RDKit's folded fingerprints in the tests, and end to end through the SA score.
import type { MolGraph } from './graph.js';

/** boost::hash_combine on 32-bit values (RDKit's vendored gboost uses a uint32 hash type). */
function hashCombine(seed: number, value: number): number {
  return (seed ^ ((value + 0x9e3779b9 + ((seed << 6) >>> 0) + (seed >>> 2)) >>> 0)) >>> 0;
}

function hashList(values: number[]): number {
  let seed = 0;
  for (const v of values) seed = hashCombine(seed, v >>> 0);
  return seed;
}

// Standard atomic weights RDKit uses for the isotope mass delta; only consulted for isotope-labelled atoms.
const ATOMIC_WEIGHT: Record<number, number> = {
  1: 1.008,
  6: 12.011,
  7: 14.007,
  8: 15.999,
  9: 18.998,
  15: 30.974,
  16: 32.067,
  17: 35.453,
  35: 79.904,
  53: 126.904,
};

function atomInvariants(g: MolGraph): number[] {
  return g.z.map((z, i) => {
    const degree = g.adj[i]!.length + g.hs[i]!;
    let deltaMass = 0;
    if (g.isotope[i]) deltaMass = Math.trunc(g.isotope[i]! - (ATOMIC_WEIGHT[z] ?? g.isotope[i]!));
    const comps = [z, degree, g.hs[i]!, g.charge[i]! >>> 0, deltaMass >>> 0];
    if (g.inRing[i]) comps.push(1);
    return hashList(comps);
  });
}

/**
 * Environment id → count, for radii 0..radius (RDKit GetMorganFingerprint(mol, radius).GetNonzeroElements()).
 * `invariants` replaces the default connectivity invariants (e.g. feature invariants, FCFP: feature-invariants.ts).
 */
export function morganCounts(g: MolGraph, radius = 2, invariants?: readonly number[]): Map<number, number> {
  const n = g.z.length;
  const nBonds = g.bonds.length;
  const words = Math.max(1, Math.ceil(nBonds / 32));
  const counts = new Map<number, number>();
  const add = (id: number) => counts.set(id, (counts.get(id) ?? 0) + 1);

  let current = invariants ? [...invariants] : atomInvariants(g);
  for (const inv of current) add(inv);

  let atomEnv: Uint32Array[] = Array.from({ length: n }, () => new Uint32Array(words));
  const seen = new Set<string>();
  const dead = new Array<boolean>(n).fill(false);

  for (let layer = 0; layer < radius; layer++) {
    const next = current.slice();
    const roundEnv: Uint32Array[] = atomEnv.map((e) => e.slice());
    const candidates: Array<{ key: string; invar: number; atom: number }> = [];
    for (let i = 0; i < n; i++) {
      if (dead[i]) continue;
      const env = roundEnv[i]!;
      const nbrs: Array<[number, number]> = [];
      for (const [j, b] of g.adj[i]!) {
        env[b >>> 5]! |= 1 << (b & 31);
        const prev = atomEnv[j]!;
        for (let w = 0; w < words; w++) env[w]! |= prev[w]!;
        nbrs.push([g.bonds[b]![2], current[j]!]);
      }
      nbrs.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      let invar = layer;
      invar = hashCombine(invar, current[i]!);
      for (const [bt, inv] of nbrs) invar = hashCombine(invar, hashCombine(hashCombine(0, bt), inv));
      next[i] = invar;
      candidates.push({ key: Array.from(env).join(','), invar, atom: i });
    }
    candidates.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.invar - b.invar || a.atom - b.atom));
    for (const c of candidates) {
      if (seen.has(c.key)) {
        dead[c.atom] = true;
        continue;
      }
      seen.add(c.key);
      add(c.invar);
    }
    current = next;
    atomEnv = roundEnv;
  }
  return counts;
}
