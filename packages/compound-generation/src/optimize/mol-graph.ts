// A molecule as a plain graph in JavaScript (atoms, Kekulé bonds, hydrogens), read once from RDKit's JSON, so the
// graph GA's crossover can cut bonds and write the pieces as SMILES without a WebAssembly call per cut. Pieces
// carry their open bonds as ring-closure labels (%90, %91): two pieces written side by side with a '.' are one
// molecule when RDKit parses them, so joining is string concatenation and the child's single parse (which the
// size rule and canonicalisation need anyway) is the only RDKit work per child.
import type { Mol } from '../rdkit.js';
import { bondDirections, type DoubleBondStereo, directionFrom, directionSymbol } from './bond-directions.js';

// biome-ignore format: the periodic table reads best in rows
const SYMBOLS = [
  '*', 'H', 'He', 'Li', 'Be', 'B', 'C', 'N', 'O', 'F', 'Ne', 'Na', 'Mg', 'Al', 'Si', 'P', 'S', 'Cl', 'Ar', 'K', 'Ca',
  'Sc', 'Ti', 'V', 'Cr', 'Mn', 'Fe', 'Co', 'Ni', 'Cu', 'Zn', 'Ga', 'Ge', 'As', 'Se', 'Br', 'Kr', 'Rb', 'Sr', 'Y', 'Zr',
  'Nb', 'Mo', 'Tc', 'Ru', 'Rh', 'Pd', 'Ag', 'Cd', 'In', 'Sn', 'Sb', 'Te', 'I', 'Xe', 'Cs', 'Ba', 'La', 'Ce', 'Pr',
  'Nd', 'Pm', 'Sm', 'Eu', 'Gd', 'Tb', 'Dy', 'Ho', 'Er', 'Tm', 'Yb', 'Lu', 'Hf', 'Ta', 'W', 'Re', 'Os', 'Ir', 'Pt',
  'Au', 'Hg', 'Tl', 'Pb', 'Bi',
];
/** SMILES's organic subset and its default valences (an unbracketed atom gets hydrogens up to the next one). */
const ORGANIC: Record<number, number[]> = {
  5: [3],
  6: [4],
  7: [3, 5],
  8: [2],
  9: [1],
  15: [3, 5],
  16: [2, 4, 6],
  17: [1],
  35: [1],
  53: [1],
};
const BOND = ['', '', '=', '#'];

export interface GraphAtom {
  z: number;
  hs: number;
  charge: number;
  isotope: number;
  radicals: number;
  /** RDKit's tetrahedral tag relative to the atom's bonds in bond order: 'cw', 'ccw' or ''. */
  stereo: string;
}

export interface GraphBond {
  a: number;
  b: number;
  order: number;
  /** A double bond's E/Z (RDKit's cis/trans with its reference neighbours of `a` and `b`). */
  stereo?: DoubleBondStereo;
}

/** An open bond of a piece: the atom it leaves from, its order and its ring-closure label. */
export interface Attachment {
  atom: number;
  order: number;
  label: number;
  /** The removed bond it stands for (keeps the atom's stereo tag). */
  replaces: number;
}

interface RdkitJson {
  molecules?: Array<{
    atoms?: Array<Partial<{ z: number; impHs: number; chg: number; nRad: number; isotope: number; stereo: string }>>;
    bonds?: Array<{ atoms: [number, number]; bo?: number; stereo?: string; stereoAtoms?: [number, number] }>;
  }>;
  defaults?: { atom?: Record<string, unknown>; bond?: Record<string, unknown> };
}

export class MolGraph {
  /** Neighbours of each atom as bond indices, in bond order (RDKit's reference order for stereo tags). */
  readonly adjacency: number[][];
  private bridgeSet: Set<number> | undefined;

  constructor(
    readonly atoms: GraphAtom[],
    readonly bonds: GraphBond[],
  ) {
    this.adjacency = atoms.map(() => []);
    bonds.forEach((b, i) => {
      this.adjacency[b.a]!.push(i);
      this.adjacency[b.b]!.push(i);
    });
  }

  /** The graph of a sanitized RDKit molecule (Kekulé form), or null when it has a bond this writer cannot write. */
  static fromMol(mol: Mol): MolGraph | null {
    const json = JSON.parse(mol.get_json()) as RdkitJson;
    const m = json.molecules?.[0];
    if (!m || json.molecules!.length !== 1) return null;
    const da = json.defaults?.atom ?? {};
    const num = (v: unknown, d: number) => (typeof v === 'number' ? v : d);
    const atoms: GraphAtom[] = (m.atoms ?? []).map((a) => ({
      z: num(a.z, num(da.z, 6)),
      hs: num(a.impHs, num(da.impHs, 0)),
      charge: num(a.chg, num(da.chg, 0)),
      isotope: num(a.isotope, num(da.isotope, 0)),
      radicals: num(a.nRad, num(da.nRad, 0)),
      stereo: a.stereo === 'cw' || a.stereo === 'ccw' ? a.stereo : '',
    }));
    const bonds: GraphBond[] = [];
    for (const b of m.bonds ?? []) {
      const order = num(b.bo, num(json.defaults?.bond?.bo, 1));
      if (order < 1 || order > 3) return null;
      bonds.push({ a: b.atoms[0], b: b.atoms[1], order });
    }
    if (atoms.some((a) => a.z < 1 || a.z >= SYMBOLS.length)) return null;
    const graph = new MolGraph(atoms, bonds);
    (m.bonds ?? []).forEach((b, i) => {
      if (bonds[i]!.order !== 2 || (b.stereo !== 'cis' && b.stereo !== 'trans') || !b.stereoAtoms) return;
      // RDKit names one neighbour of each end; which end each belongs to is read from the graph.
      const [s, t] = b.stereoAtoms;
      const bonded = (x: number, y: number) => graph.adjacency[x]!.some((e) => graph.other(e, x) === y);
      const { a, b: z } = bonds[i]!;
      const atomsOf: [number, number] | null =
        bonded(a, s) && bonded(z, t) ? [s, t] : bonded(a, t) && bonded(z, s) ? [t, s] : null;
      if (atomsOf) bonds[i]!.stereo = { atoms: atomsOf, cis: b.stereo === 'cis' };
    });
    return graph;
  }

  other(bond: number, atom: number): number {
    const b = this.bonds[bond]!;
    return b.a === atom ? b.b : b.a;
  }

  /** Whether a bond is in no ring (a bridge of the graph), by Tarjan's low-link. */
  isAcyclic(bond: number): boolean {
    if (!this.bridgeSet) {
      const n = this.atoms.length;
      const disc = new Int32Array(n).fill(-1);
      const low = new Int32Array(n);
      const set = new Set<number>();
      let time = 0;
      const visit = (u: number, viaBond: number) => {
        disc[u] = low[u] = time++;
        for (const e of this.adjacency[u]!) {
          if (e === viaBond) continue;
          const v = this.other(e, u);
          if (disc[v]! < 0) {
            visit(v, e);
            low[u] = Math.min(low[u]!, low[v]!);
            if (low[v]! > disc[u]!) set.add(e);
          } else low[u] = Math.min(low[u]!, disc[v]!);
        }
      };
      for (let i = 0; i < n; i++) if (disc[i]! < 0) visit(i, -1);
      this.bridgeSet = set;
    }
    return this.bridgeSet.has(bond);
  }

  /** Atoms reachable from `start` without crossing the `removed` bonds. */
  component(start: number, removed: ReadonlySet<number>): number[] {
    const seen = new Set([start]);
    const stack = [start];
    while (stack.length) {
      const u = stack.pop()!;
      for (const e of this.adjacency[u]!) {
        if (removed.has(e)) continue;
        const v = this.other(e, u);
        if (!seen.has(v)) {
          seen.add(v);
          stack.push(v);
        }
      }
    }
    return [...seen];
  }

  heavyAtoms(atoms: readonly number[]): number {
    let n = 0;
    for (const a of atoms) if (this.atoms[a]!.z > 1) n++;
    return n;
  }

  /**
   * SMILES of the piece holding `start` once the `removed` bonds are gone, its open bonds written as ring-closure
   * labels with their bond orders. Atoms are written in Kekulé form (RDKit perceives aromaticity again when it
   * parses the child); an organic-subset atom whose hydrogens are its default ones is written bare, so RDKit
   * recounts them if a join changes its bonds, as Jensen's reaction-based joins do. Tetrahedral stereo is kept;
   * so is a double bond's E/Z where the bond and a neighbour at each end are in the piece (./bond-directions.ts).
   */
  pieceSmiles(start: number, removed: ReadonlySet<number>, attachments: readonly Attachment[]): string {
    return this.writePiece(start, removed, attachments).smiles;
  }

  /**
   * pieceSmiles, and the bond direction written on each open bond (in `attachments` order; +1 '/', -1 '\', 0
   * none): two pieces joined there must carry opposite ones, each read from its own side.
   */
  writePiece(
    start: number,
    removed: ReadonlySet<number>,
    attachments: readonly Attachment[],
  ): { smiles: string; directions: number[] } {
    const open = new Map<number, Attachment[]>();
    for (const t of attachments) {
      const list = open.get(t.atom) ?? [];
      list.push(t);
      open.set(t.atom, list);
    }
    // Depth-first tree; each bond met a second time is a ring closure, labelled from 1 (labels 90+ are open bonds).
    const order: number[] = [];
    const parentBond = new Map<number, number>();
    const children = new Map<number, number[]>();
    const closures = new Map<number, Array<{ bond: number; label: number }>>();
    const visited = new Set<number>();
    const usedBonds = new Set<number>();
    let nextLabel = 1;
    const dfs = (u: number) => {
      visited.add(u);
      order.push(u);
      const kids: number[] = [];
      for (const e of this.adjacency[u]!) {
        if (removed.has(e) || usedBonds.has(e)) continue;
        usedBonds.add(e);
        const v = this.other(e, u);
        if (visited.has(v)) {
          const label = nextLabel++;
          (closures.get(v) ?? closures.set(v, []).get(v)!).push({ bond: e, label });
          (closures.get(u) ?? closures.set(u, []).get(u)!).push({ bond: e, label });
          continue;
        }
        parentBond.set(v, e);
        kids.push(v);
        dfs(v);
      }
      children.set(u, kids);
    };
    dfs(start);
    const directions = bondDirections(this, visited, removed, attachments);
    // A bond's symbol written from atom `from`: its order, or its direction when it carries one.
    const symbol = (bond: number, from: number, order = this.bonds[bond]!.order) =>
      order === 1 ? directionSymbol(directionFrom(this, directions, bond, from)) : BOND[order]!;
    const label = (n: number) => (n < 10 ? String(n) : `%${n}`);
    const out: string[] = [];
    const emit = (u: number) => {
      // Neighbours in the order the SMILES states them, for the stereo tag's parity.
      const stated: number[] = [];
      const pb = parentBond.get(u);
      if (pb !== undefined) stated.push(pb);
      const ringParts: string[] = [];
      // Closures are written in the order they were opened at the first atom met, then closed in any order.
      for (const c of closures.get(u) ?? []) {
        stated.push(c.bond);
        ringParts.push(symbol(c.bond, u) + label(c.label));
      }
      const opens = open.get(u) ?? [];
      for (const t of opens) {
        stated.push(t.replaces);
        ringParts.push(symbol(t.replaces, u, t.order) + label(t.label));
      }
      const kids = children.get(u)!;
      for (const v of kids) stated.push(parentBond.get(v)!);
      out.push(this.atomToken(u, stated, pb !== undefined) + ringParts.join(''));
      kids.forEach((v, i) => {
        const bond = symbol(parentBond.get(v)!, u);
        if (i < kids.length - 1) {
          out.push('(', bond);
          emit(v);
          out.push(')');
        } else {
          out.push(bond);
          emit(v);
        }
      });
    };
    emit(start);
    return {
      smiles: out.join(''),
      directions: attachments.map((t) => (t.order === 1 ? directionFrom(this, directions, t.replaces, t.atom) : 0)),
    };
  }

  /**
   * An atom's token. `stated` are its bonds in the SMILES's order, an open bond standing for the bond it replaces.
   */
  private atomToken(u: number, stated: number[], hasPreceding: boolean): string {
    const a = this.atoms[u]!;
    const symbol = SYMBOLS[a.z]!;
    // Hydrogens are judged on the original bonds: a bare atom keeps them, and RDKit recounts them after a join
    // that changes a bond order.
    let heavyValence = 0;
    for (const e of this.adjacency[u]!) heavyValence += this.bonds[e]!.order;
    const defaults = ORGANIC[a.z];
    const bare =
      defaults !== undefined &&
      a.charge === 0 &&
      a.isotope === 0 &&
      a.radicals === 0 &&
      a.stereo === '' &&
      implicitHs(defaults, heavyValence) === a.hs;
    if (bare) return symbol;
    const chiral =
      a.stereo && stated.length === this.adjacency[u]!.length ? this.chirality(u, stated, hasPreceding) : '';
    const h = a.hs === 0 ? '' : a.hs === 1 ? 'H' : `H${a.hs}`;
    const q = a.charge === 0 ? '' : `${a.charge > 0 ? '+' : '-'}${Math.abs(a.charge) === 1 ? '' : Math.abs(a.charge)}`;
    return `[${a.isotope || ''}${symbol}${chiral}${h}${q}]`;
  }

  /**
   * '@' or '@@' for the SMILES order of the neighbours. RDKit's tag is relative to the atom's bonds in bond order
   * with an implicit hydrogen last (checked by writing 3,000 ZINC molecules whole and reading them back); SMILES's is relative to the written order (preceding atom, then the
   * hydrogen, then closures and branches): the same tag when the two orders differ by an even permutation.
   */
  private chirality(u: number, stated: number[], hasPreceding: boolean): string {
    const a = this.atoms[u]!;
    const H = -1;
    const reference = [...this.adjacency[u]!];
    const written = [...stated];
    if (a.hs === 1) {
      reference.push(H);
      written.splice(hasPreceding ? 1 : 0, 0, H);
    }
    const odd = permutationParity(reference, written);
    const ccw = a.stereo === 'ccw';
    return ccw !== odd ? '@' : '@@';
  }
}

function implicitHs(valences: number[], explicit: number): number {
  for (const v of valences) if (v >= explicit) return v - explicit;
  return 0;
}

/** Whether `b` is an odd permutation of `a` (same elements). */
function permutationParity(a: readonly number[], b: readonly number[]): boolean {
  const pos = new Map(a.map((x, i) => [x, i]));
  const p = b.map((x) => pos.get(x)!);
  let odd = false;
  const seen = new Array<boolean>(p.length).fill(false);
  for (let i = 0; i < p.length; i++) {
    if (seen[i]) continue;
    let len = 0;
    for (let j = i; !seen[j]; j = p[j]!) {
      seen[j] = true;
      len++;
    }
    if (len % 2 === 0) odd = !odd;
  }
  return odd;
}
