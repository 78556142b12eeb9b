// Jensen's graph GA operators (Chem. Sci. 2019, 10, 3567; as PMO's graph_ga runs them): a child is a crossover
// of two parents, mutated with probability `mutation_rate`; each operator is tried up to 10 times for a child
// that RDKit sanitizes and whose heavy-atom count is above 5 and below a size drawn from N(39.15, 3.50) (the
// ZINC size distribution Jensen's mol_ok uses). The moves themselves are the engine's (../generation/
// operators.ts): crossover at an acyclic single bond, and the reaction families (append, insert, delete and
// change atoms, change bond orders, open and close rings) picked uniformly as Jensen picks his.
import { FragmentLibrary } from '../generation/library.js';
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

export class GraphOperators {
  private readonly ops: Operators;

  /** Called with each child that passes, while its RDKit molecule is at hand (e.g. for its fingerprint). */
  onChild: ((canonical: string, mol: Mol) => void) | undefined;

  constructor(private readonly rd: RDKit) {
    this.ops = new Operators(rd, FragmentLibrary.load());
  }

  /** Canonical SMILES of a candidate that passes Jensen's mol_ok, or null. */
  private ok(smiles: string | null | undefined, rng: Random): string | null {
    if (!smiles) return null;
    const mol = parseSmiles(this.rd, smiles);
    if (!mol) return null;
    try {
      const n = mol.get_num_atoms(true);
      const target = SIZE_STDEV * gaussian(rng) + AVERAGE_SIZE;
      if (n <= 5 || n >= target) return null;
      const c = mol.get_smiles();
      if (c.includes('.')) return null;
      this.onChild?.(c, mol);
      return c;
    } finally {
      mol.delete();
    }
  }

  crossover(a: string, b: string, rng: Random): string | null {
    for (let i = 0; i < TRIES; i++) {
      const child = this.ok(this.ops.crossover(a, b, rng)?.smiles, rng);
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
