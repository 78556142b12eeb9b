// Jensen's graph GA operators (Chem. Sci. 2019, 10, 3567; as PMO's graph_ga runs them): a child is a crossover
// of two parents, mutated with probability `mutation_rate`; each operator is tried up to 10 times for a child
// that RDKit sanitizes and whose heavy-atom count is above 5 and below a size drawn from N(39.15, 3.50) (the
// ZINC size distribution Jensen's mol_ok uses). The moves themselves are the engine's (../generation/
// operators.ts): crossover at an acyclic single bond, and the reaction families (append, insert, delete and
// change atoms, change bond orders, open and close rings) picked uniformly as Jensen picks his.
import { FragmentLibrary, zip } from '../generation/library.js';
import { MUTATION_FAMILIES, Operators } from '../generation/operators.js';
import type { Random } from '../generation/prng.js';
import { parseSmiles, type Mol, type RDKit } from '../rdkit.js';

const REACTION_FAMILIES = MUTATION_FAMILIES.filter((f) => f !== 'replace_side_chain' && f !== 'grow');
const TRIES = 10;
const AVERAGE_SIZE = 39.15;
const SIZE_STDEV = 3.5;

/** A standard normal draw (Box-Muller) from the run's generator. */
export function gaussian(rng: Random): number {
  const u = 1 - rng.next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.next());
}

interface Cut {
  pieces: [string, string];
  atoms: [number, number];
}

const CUT_CACHE = 20_000;
// Atoms written in a SMILES: bracket atoms, and the organic subset (two-letter symbols first).
const ATOM = /\[[^\]]*\]|Br|Cl|[BCNOPSFIbcnops]/g;

/** Heavy atoms of a SMILES piece: its atoms less dummies ([*:1]) and bracketed hydrogens. */
export function heavyAtoms(smiles: string): number {
  let n = 0;
  for (const m of smiles.matchAll(ATOM)) {
    const t = m[0];
    if (t[0] === '[' && (t.startsWith('[*') || /^\[(?:\d*)H[+-]?\d*(?::\d+)?\]$/.test(t))) continue;
    n++;
  }
  return n;
}

export class GraphOperators {
  private readonly ops: Operators;

  /** Called with each child that passes, while its RDKit molecule is at hand (e.g. for its fingerprint). */
  onChild: ((canonical: string, mol: Mol) => void) | undefined;

  constructor(private readonly rd: RDKit) {
    this.ops = new Operators(rd, FragmentLibrary.load());
  }

  /** Canonical SMILES of a candidate that passes Jensen's mol_ok (size drawn now unless given), or null. */
  private ok(smiles: string | null | undefined, rng: Random, size?: number): string | null {
    if (!smiles) return null;
    const mol = parseSmiles(this.rd, smiles);
    if (!mol) return null;
    try {
      const n = mol.get_num_atoms(true);
      const target = size ?? SIZE_STDEV * gaussian(rng) + AVERAGE_SIZE;
      if (n <= 5 || n >= target) return null;
      const c = mol.get_smiles();
      if (c.includes('.')) return null;
      this.onChild?.(c, mol);
      return c;
    } finally {
      mol.delete();
    }
  }

  private readonly cutCache = new Map<string, Cut[]>();

  /** A molecule's single cuts at acyclic single bonds (RDKit MMPA, as the engine's crossover), cached. */
  private cuts(smiles: string): Cut[] {
    let c = this.cutCache.get(smiles);
    if (!c) {
      c = this.ops.singleCuts(smiles).map(([x, y]) => ({ pieces: [x, y], atoms: [heavyAtoms(x), heavyAtoms(y)] }));
      if (this.cutCache.size >= CUT_CACHE) this.cutCache.delete(this.cutCache.keys().next().value!);
      this.cutCache.set(smiles, c);
    }
    return c;
  }

  /**
   * The engine's crossover (one piece of each parent, cut at an acyclic single bond, joined with molzip) under
   * Jensen's size rule. The child's heavy atoms are the two pieces' (the dummies go), so the rule is checked
   * before joining: same outcome, without joining and sanitizing children that would be refused.
   */
  crossover(a: string, b: string, rng: Random): string | null {
    const ca = this.cuts(a);
    const cb = this.cuts(b);
    if (ca.length === 0 || cb.length === 0) return null;
    for (let i = 0; i < TRIES; i++) {
      const x = rng.pick(ca);
      const y = rng.pick(cb);
      const ix = rng.int(2);
      const iy = rng.int(2);
      const target = SIZE_STDEV * gaussian(rng) + AVERAGE_SIZE;
      const n = x.atoms[ix]! + y.atoms[iy]!;
      if (n <= 5 || n >= target) continue;
      const child = this.ok(zip(this.rd, x.pieces[ix]!, y.pieces[iy]!), rng, target);
      if (child) return child;
    }
    return null;
  }

  /** With probability `rate` a mutation of `smiles` (null when none works), else `smiles` itself. */
  mutate(smiles: string, rate: number, rng: Random): string | null {
    if (!rng.chance(rate)) return smiles;
    for (let i = 0; i < TRIES; i++) {
      const family = rng.pick(REACTION_FAMILIES);
      const child = this.ok(this.ops.mutate(smiles, rng, family)?.smiles, rng);
      if (child) return child;
    }
    return null;
  }

  /** Jensen's reproduce: a crossover of two parents drawn from the mating pool, then perhaps a mutation. */
  reproduce(matingPool: readonly string[], rate: number, rng: Random): string | null {
    const a = rng.pick(matingPool);
    const b = rng.pick(matingPool);
    const child = this.crossover(a, b, rng);
    return child === null ? null : this.mutate(child, rate, rng);
  }

  dispose(): void {
    this.ops.dispose();
  }
}
