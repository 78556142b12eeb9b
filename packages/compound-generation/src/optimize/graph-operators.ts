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
import { reverseDirections, withoutDirections } from './bond-directions.js';
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
  /** The bond direction on its open bond, read from the piece (0: none; see ./bond-directions.ts). */
  direction: number;
  /** The SMILES with every bond direction reversed, written on first use. */
  reversed?: string;
}

/** A ring cut: two ring bonds whose removal leaves exactly two pieces, each holding one end of each bond. */
interface RingCut {
  bonds: [number, number];
  /** Per piece: its atoms, and its atom at each bond (in `bonds` order). */
  pieces: [RingPiece, RingPiece];
}

interface RingPiece {
  start: number;
  heavy: number;
  ends: [number, number];
}

/** A parent read into a graph once: its acyclic single bonds, each a cut; its ring cuts when asked for. */
interface Parent {
  graph: MolGraph;
  cuts: Cut[];
  /** Jensen's cut_ring matches: [R]@[R]@[R]@[R] (bonds 1-2, 3-4) and [R]@[R;!D2]@[R] (bonds 1-2, 2-3). */
  ringCuts?: [RingCut[], RingCut[]];
}

// Deliberate likeness: named constants, paired by shape with other files' constant runs only.
const PARENT_CACHE = 20_000;
const READ_CACHE = 100_000;

/** A parsed candidate: canonical SMILES, heavy atoms, and whether it passes the rules that need no draw. */
interface Read {
  canonical: string;
  atoms: number;
  passes: boolean;
}
/** The open bond's ring-closure label in a piece: two pieces side by side with a '.' are joined there. */
const JOIN = 90;

export class GraphOperators {
  private readonly ops: Operators;

  /** Called with each child that passes, while its RDKit molecule is at hand (e.g. for its fingerprint). */
  onChild: ((canonical: string, mol: Mol) => void) | undefined;

  /**
   * @param ringCrossover Jensen's ring crossover too: each of the 10 tries of a crossover is, with probability
   *   1/2, a cut of two ring bonds in each parent with the pieces' two open bonds joined again (each single or
   *   double), the child kept when Jensen's ring_OK passes (no ring above 6 atoms, no allene in a ring, no double
   *   bond between two 3- or 4-ring atoms).
   */
  constructor(
    private readonly rd: RDKit,
    private readonly ringCrossover = false,
  ) {
    this.ops = new Operators(rd, FragmentLibrary.load());
  }

  /** What parsing a candidate SMILES told (null: RDKit refused it), by the SMILES as written. */
  private readonly reads = new Map<string, Read | null>();

  /**
   * Canonical SMILES of a candidate that passes Jensen's mol_ok (size drawn now unless given), or null. The same
   * pieces meet again often (parents near the top are drawn again and again), so each candidate string is parsed
   * once and what it told is kept: the outcome and the random draws are those of parsing it every time.
   */
  private ok(smiles: string | null | undefined, rng: Random, size?: number, rings = false): string | null {
    if (!smiles) return null;
    const key = rings ? `R${smiles}` : smiles;
    let r = this.reads.get(key);
    if (r === undefined) {
      r = this.read(smiles, rings);
      if (this.reads.size >= READ_CACHE) this.reads.delete(this.reads.keys().next().value!);
      this.reads.set(key, r);
    }
    if (!r) return null;
    const target = size ?? SIZE_STDEV * gaussian(rng) + AVERAGE_SIZE;
    if (r.atoms <= 5 || r.atoms >= target || !r.passes) return null;
    return r.canonical;
  }

  private read(smiles: string, rings: boolean): Read | null {
    const mol = parseSmiles(this.rd, smiles);
    if (!mol) return null;
    try {
      const atoms = mol.get_num_atoms(true);
      const canonical = mol.get_smiles();
      const passes = atoms > 5 && !canonical.includes('.') && (!rings || ringOk(mol));
      if (passes) this.onChild?.(canonical, mol);
      return { canonical, atoms, passes };
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
      const written = g.writePiece(atom, removed, [{ atom, order: 1, label: JOIN, replaces: cut.bond }]);
      piece = {
        smiles: written.smiles,
        heavy: g.heavyAtoms(g.component(atom, removed)),
        direction: written.directions[0]!,
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
    if (!pa || !pb) return null;
    const linear = pa.cuts.length > 0 && pb.cuts.length > 0;
    for (let i = 0; i < TRIES; i++) {
      if (this.ringCrossover && rng.chance(0.5)) {
        const child = this.ringChild(pa, pb, rng);
        if (child) return child;
        continue;
      }
      if (!linear) {
        if (this.ringCrossover) continue;
        return null;
      }
      const x = rng.pick(pa.cuts);
      const y = rng.pick(pb.cuts);
      const ix = rng.int(2);
      const iy = rng.int(2);
      const target = SIZE_STDEV * gaussian(rng) + AVERAGE_SIZE;
      const px = this.piece(pa, x, ix);
      const py = this.piece(pb, y, iy);
      const n = px.heavy + py.heavy;
      if (n <= 5 || n >= target) continue;
      const child = this.ok(`${px.smiles}.${joinable(px.direction, py)}`, rng, target);
      if (child) return child;
    }
    return null;
  }

  /** Jensen's cut_ring candidates of a parent, computed on first use. */
  private ringCuts(p: Parent): [RingCut[], RingCut[]] {
    if (p.ringCuts) return p.ringCuts;
    const g = p.graph;
    const ring = (e: number) => !g.isAcyclic(e);
    const ringBonds = (u: number) => g.adjacency[u]!.filter(ring);
    const paths: RingCut[] = [];
    const stars: RingCut[] = [];
    const seen = new Set<string>();
    const add = (list: RingCut[], e1: number, e2: number) => {
      const key = e1 < e2 ? `${e1},${e2}` : `${e2},${e1}`;
      if (seen.has(key)) return;
      seen.add(key);
      const removed = new Set([e1, e2]);
      const b1 = g.bonds[e1]!;
      const side = g.component(b1.a, removed);
      const inSide = new Set(side);
      const b2 = g.bonds[e2]!;
      // Exactly two pieces: the other end of each bond is in the other piece, and the pieces cover the molecule.
      if (inSide.has(b1.b) || inSide.has(b2.a) === inSide.has(b2.b)) return;
      const other = g.component(b1.b, removed);
      if (side.length + other.length !== g.atoms.length) return;
      const endIn = (set: Set<number>, e: number) => (set.has(g.bonds[e]!.a) ? g.bonds[e]!.a : g.bonds[e]!.b);
      const inOther = new Set(other);
      list.push({
        bonds: [e1, e2],
        pieces: [
          { start: b1.a, heavy: g.heavyAtoms(side), ends: [endIn(inSide, e1), endIn(inSide, e2)] },
          { start: b1.b, heavy: g.heavyAtoms(other), ends: [endIn(inOther, e1), endIn(inOther, e2)] },
        ],
      });
    };
    g.bonds.forEach((b, mid) => {
      if (!ring(mid)) return;
      // [R]@[R]@[R]@[R]: u-v, v-w (the middle bond), w-x, four distinct atoms; bonds u-v and w-x are cut.
      for (const e1 of ringBonds(b.a)) {
        if (e1 === mid) continue;
        const u = g.other(e1, b.a);
        for (const e2 of ringBonds(b.b)) {
          if (e2 === mid) continue;
          const x = g.other(e2, b.b);
          if (x !== u) add(paths, e1, e2);
        }
      }
    });
    g.atoms.forEach((_, v) => {
      // [R]@[R;!D2]@[R]: two ring bonds of an atom with other than two neighbours.
      if (g.adjacency[v]!.length === 2) return;
      const rb = ringBonds(v);
      for (let i = 0; i < rb.length; i++) for (let j = i + 1; j < rb.length; j++) add(stars, rb[i]!, rb[j]!);
    });
    p.ringCuts = [paths, stars];
    return p.ringCuts;
  }

  /** One try of Jensen's ring crossover: a ring cut of each parent, one piece of each, both bonds joined again. */
  private ringChild(pa: Parent, pb: Parent, rng: Random): string | null {
    const pick = (p: Parent): [RingCut, RingPiece] | null => {
      const [paths, stars] = this.ringCuts(p);
      const list = paths.length && stars.length ? (rng.chance(0.5) ? paths : stars) : paths.length ? paths : stars;
      if (list.length === 0) return null;
      const cut = rng.pick(list);
      return [cut, cut.pieces[rng.int(2)]!];
    };
    const x = pick(pa);
    const y = pick(pb);
    if (!x || !y) return null;
    const [cx, px] = x;
    const [cy, py] = y;
    const target = SIZE_STDEV * gaussian(rng) + AVERAGE_SIZE;
    const n = px.heavy + py.heavy;
    if (n <= 5 || n >= target) return null;
    const swap = rng.chance(0.5);
    const orders = [rng.chance(0.5) ? 2 : 1, rng.chance(0.5) ? 2 : 1];
    const write = (p: Parent, cut: RingCut, piece: RingPiece, labels: [number, number]) =>
      p.graph.writePiece(
        piece.start,
        new Set(cut.bonds),
        [0, 1].map((k) => ({
          atom: piece.ends[k]!,
          order: orders[labels[k]! - JOIN]!,
          label: labels[k]!,
          replaces: cut.bonds[k]!,
        })),
      );
    const sx = write(pa, cx, px, [JOIN, JOIN + 1]);
    const sy = write(pb, cy, py, swap ? [JOIN + 1, JOIN] : [JOIN, JOIN + 1]);
    // Per joined bond, the two sides' directions must be opposite: reverse one piece's when both joins say so,
    // drop E/Z in both when the two joins disagree.
    const yAt = swap ? [sy.directions[1]!, sy.directions[0]!] : sy.directions;
    const clash = sx.directions.map((d, k) => (d !== 0 && yAt[k] !== 0 ? (d === yAt[k] ? 1 : -1) : 0));
    const joined = clash.includes(1) ? (clash.includes(-1) ? null : reverseDirections(sy.smiles)) : sy.smiles;
    const child =
      joined === null ? `${withoutDirections(sx.smiles)}.${withoutDirections(sy.smiles)}` : `${sx.smiles}.${joined}`;
    return this.ok(child, rng, target, true);
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

/**
 * The second piece's SMILES for joining at the open bond: both pieces' directions there must be opposite (each
 * read from its own side), so the second is written with every direction reversed (which keeps all its E/Z)
 * when they are equal.
 */
function joinable(first: number, second: Piece): string {
  if (first === 0 || first !== second.direction) return second.smiles;
  second.reversed ??= reverseDirections(second.smiles);
  return second.reversed;
}

/** Jensen's ring_OK: no ring above 6 atoms, no allene in a ring, no double bond between atoms of 3- or 4-rings. */
function ringOk(mol: Mol): boolean {
  const json = JSON.parse(mol.get_json()) as {
    molecules: Array<{
      bonds?: Array<{ atoms: [number, number]; bo?: number }>;
      extensions?: Array<{ atomRings?: number[][] }>;
    }>;
  };
  const m = json.molecules[0]!;
  const rings = m.extensions?.find((e) => e.atomRings)?.atomRings ?? [];
  if (rings.length === 0) return true;
  if (rings.some((r) => r.length > 6)) return false;
  const inRing = new Set(rings.flat());
  const small = new Set(rings.filter((r) => r.length <= 4).flat());
  const doubles = new Map<number, number>();
  for (const b of m.bonds ?? []) {
    if (b.bo !== 2) continue;
    const [u, v] = b.atoms;
    if (small.has(u) && small.has(v)) return false;
    for (const a of [u, v]) doubles.set(a, (doubles.get(a) ?? 0) + 1);
  }
  // An allene in a ring: a ring atom with two double bonds to ring atoms ([R]=[R]=[R]).
  for (const [a, n] of doubles) {
    if (n < 2 || !inRing.has(a)) continue;
    const partners = (m.bonds ?? [])
      .filter((b) => b.bo === 2 && b.atoms.includes(a))
      .map((b) => (b.atoms[0] === a ? b.atoms[1] : b.atoms[0]));
    if (partners.filter((p) => inRing.has(p)).length >= 2) return false;
  }
  return true;
}
