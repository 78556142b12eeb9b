// Jensen's graph GA operators (Chem. Sci. 2019, 10, 3567; as PMO's graph_ga runs them): a child is a crossover
// of two parents, mutated with probability `mutation_rate`; each operator is tried up to 10 times for a child
// that RDKit sanitizes and whose heavy-atom count is above 5 and below a size drawn from N(39.15, 3.50) (the
// ZINC size distribution Jensen's mol_ok uses). Crossover is Jensen's, on a JavaScript graph of each parent
// (./mol-graph.ts: one RDKit call per parent, pieces written as SMILES and joined by a ring-closure label);
// mutations are the engine's reaction families (../generation/operators.ts: append, insert, delete and change
// atoms, change bond orders, open and close rings) picked uniformly as Jensen picks his.
import { FragmentLibrary } from '../generation/library.js';
import { MUTATION_FAMILIES, Operators } from '../generation/operators.js';
import type { Random } from '../generation/prng.js';
import { parseSmiles, type Mol, type RDKit } from '../rdkit.js';
import { MolGraph } from './mol-graph.js';

const REACTION_FAMILIES = MUTATION_FAMILIES.filter((f) => f !== 'replace_side_chain' && f !== 'grow');
const TRIES = 10;
const AVERAGE_SIZE = 39.15;
const SIZE_STDEV = 3.5;

/** A standard normal draw (Box-Muller) from the run's generator. */
export function gaussian(rng: Random): number {
  const u = 1 - rng.next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.next());
}

/** A parent's non-ring cut, its two pieces written on first use. */
interface Cut {
  bond: number;
  pieces: [Piece | undefined, Piece | undefined];
}

interface Piece {
  smiles: string;
  heavy: number;
}

/** A parent read into a graph once: its acyclic single bonds, each a cut. */
interface Parent {
  graph: MolGraph;
  cuts: Cut[];
}

const PARENT_CACHE = 20_000;
/** The open bond's ring-closure label in a piece: two pieces side by side with a '.' are joined there. */
const JOIN = 90;

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

  private readonly parents = new Map<string, Parent | null>();

  /** A parent's graph and cuts (Jensen's `[*]-;!@[*]`: every acyclic single bond), cached by SMILES. */
  private parent(smiles: string): Parent | null {
    let p = this.parents.get(smiles);
    if (p === undefined) {
      p = null;
      const mol = parseSmiles(this.rd, smiles);
      if (mol) {
        try {
          const graph = MolGraph.fromMol(mol);
          if (graph) {
            const cuts: Cut[] = [];
            graph.bonds.forEach((b, i) => {
              if (b.order === 1 && graph.isAcyclic(i)) cuts.push({ bond: i, pieces: [undefined, undefined] });
            });
            p = { graph, cuts };
          }
        } finally {
          mol.delete();
        }
      }
      if (this.parents.size >= PARENT_CACHE) this.parents.delete(this.parents.keys().next().value!);
      this.parents.set(smiles, p);
    }
    return p;
  }

  /** One side of a cut (0: the bond's first atom's), with the open bond labelled for joining. */
  private piece(parent: Parent, cut: Cut, side: number): Piece {
    let piece = cut.pieces[side];
    if (!piece) {
      const g = parent.graph;
      const bond = g.bonds[cut.bond]!;
      const atom = side === 0 ? bond.a : bond.b;
      const removed = new Set([cut.bond]);
      piece = {
        smiles: g.pieceSmiles(atom, removed, [{ atom, order: 1, label: JOIN, replaces: cut.bond }]),
        heavy: g.heavyAtoms(g.component(atom, removed)),
      };
      cut.pieces[side] = piece;
    }
    return piece;
  }

  /**
   * Jensen's non-ring crossover: each parent cut at an acyclic single bond, one piece of each joined by a single
   * bond, under his size rule. The child's heavy atoms are the two pieces', so the rule is checked before the
   * child is parsed: same outcome, without parsing children that would be refused.
   */
  crossover(a: string, b: string, rng: Random): string | null {
    const pa = this.parent(a);
    const pb = this.parent(b);
    if (!pa || !pb || pa.cuts.length === 0 || pb.cuts.length === 0) return null;
    for (let i = 0; i < TRIES; i++) {
      const x = rng.pick(pa.cuts);
      const y = rng.pick(pb.cuts);
      const ix = rng.int(2);
      const iy = rng.int(2);
      const target = SIZE_STDEV * gaussian(rng) + AVERAGE_SIZE;
      const px = this.piece(pa, x, ix);
      const py = this.piece(pb, y, iy);
      const n = px.heavy + py.heavy;
      if (n <= 5 || n >= target) continue;
      const child = this.ok(`${px.smiles}.${py.smiles}`, rng, target);
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
