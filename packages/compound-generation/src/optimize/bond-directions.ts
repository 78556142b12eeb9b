// E/Z of a piece's double bonds as SMILES bond directions ('/' and '\'), for the crossover's graph writer
// (./mol-graph.ts). SMILES states a double bond's configuration through the directions of the single bonds at
// its two ends; the rule used here: for a single bond from atom x to atom y, "x/y" puts y above x (u = +1) and
// "x\y" below (u = -1), whichever of the two is written first; a ring-closure or open-bond label at x means the
// same with the partner after x. Two neighbours on the same side of a double bond have equal u across it when
// cis, opposite when trans, and two neighbours of one end have opposite u. One single bond can be a neighbour of
// two stereo double bonds (conjugation), so the sides of the double bonds of one piece are chosen together.
//
// A double bond keeps its E/Z when both ends and, at each end, at least one single-bonded neighbour are in the
// piece (a removed bond that an open bond of the piece replaces counts: the atom joined there takes the removed
// neighbour's place). When a side has no such neighbour, or the piece's constraints cannot all be met, the
// configuration is dropped (no direction written), never guessed.

/** A double bond's E/Z as RDKit gives it: a neighbour of each end (of `a`, then of `b`) and whether they are cis. */
export interface DoubleBondStereo {
  atoms: [number, number];
  cis: boolean;
}

/** The graph as this module needs it (./mol-graph.ts's MolGraph satisfies it). */
export interface StereoGraph {
  readonly bonds: ReadonlyArray<{ a: number; b: number; order: number; stereo?: DoubleBondStereo }>;
  readonly adjacency: readonly (readonly number[])[];
  other(bond: number, atom: number): number;
  isAcyclic(bond: number): boolean;
}

/** An open bond of the piece: the atom it leaves from, its order and the removed bond it stands for. */
export interface OpenBond {
  atom: number;
  order: number;
  replaces: number;
}

/**
 * Directions of the piece's single bonds (parent bond index -> u from the bond's atom `a` to its atom `b`), or
 * an empty map when no E/Z can be kept. `inPiece` are the piece's atoms, `removed` the parent bonds not in it.
 */
export function bondDirections(
  g: StereoGraph,
  inPiece: ReadonlySet<number>,
  removed: ReadonlySet<number>,
  open: readonly OpenBond[],
): Map<number, number> {
  const openAt = new Map<string, number>(); // `atom,bond` -> order of the open bond replacing it
  for (const t of open) openAt.set(`${t.atom},${t.replaces}`, t.order);
  // A neighbour bond of x in the piece that can carry a direction: a single bond kept, or an open single bond.
  const carries = (x: number, e: number): boolean => {
    if (!removed.has(e)) return g.bonds[e]!.order === 1 && inPiece.has(g.other(e, x));
    return openAt.get(`${x},${e}`) === 1;
  };
  // Per kept stereo double bond: its neighbour bonds with their u (as x -> neighbour) for the side choice +1.
  const requirements: Array<Array<{ bond: number; u: number }>> = [];
  g.bonds.forEach((bond, e) => {
    if (!bond.stereo || removed.has(e) || !inPiece.has(bond.a) || !inPiece.has(bond.b)) return;
    const req: Array<{ bond: number; u: number }> = [];
    for (const [x, ref, side] of [
      [bond.a, bond.stereo.atoms[0], 1],
      [bond.b, bond.stereo.atoms[1], bond.stereo.cis ? 1 : -1],
    ] as const) {
      const slots = g.adjacency[x]!.filter((n) => n !== e && carries(x, n));
      if (slots.length === 0) return; // this side lost its neighbours: the configuration is undefined here
      for (const n of slots) {
        const up = g.other(n, x) === ref ? side : -side;
        req.push({ bond: n, u: g.bonds[n]!.a === x ? up : -up });
      }
    }
    requirements.push(req);
  });
  const directions = new Map<number, number>();
  const flip = new Int8Array(requirements.length); // 0: not yet chosen
  for (let start = 0; start < requirements.length; start++) {
    if (flip[start]) continue;
    flip[start] = 1;
    const queue = [start];
    while (queue.length) {
      const d = queue.pop()!;
      for (const { bond, u } of requirements[d]!) {
        const want = u * flip[d]!;
        const had = directions.get(bond);
        if (had !== undefined && had !== want) return new Map(); // sides that cannot all be met: drop E/Z
        directions.set(bond, want);
        // Other stereo double bonds sharing this neighbour bond take the side it implies.
        for (let k = 0; k < requirements.length; k++) {
          const shared = k === d ? undefined : requirements[k]!.find((q) => q.bond === bond);
          if (!shared) continue;
          const f = want * shared.u;
          if (flip[k] === 0) {
            flip[k] = f;
            queue.push(k);
          } else if (flip[k] !== f) return new Map();
        }
      }
    }
  }
  // A double bond without E/Z must not acquire one from its neighbours' directions (a triene's middle bond).
  for (const [e, bond] of g.bonds.entries()) {
    if (bond.order !== 2 || bond.stereo || removed.has(e) || !inPiece.has(bond.a) || !g.isAcyclic(e)) continue;
    const marked = (x: number) => g.adjacency[x]!.some((n) => n !== e && directions.has(n) && carries(x, n));
    if (marked(bond.a) && marked(bond.b)) return new Map();
  }
  return directions;
}

/** u (+1 above, -1 below) of the bond `bond` read from atom `from`, given its direction from `a` to `b`. */
export function directionFrom(g: StereoGraph, directions: ReadonlyMap<number, number>, bond: number, from: number) {
  const s = directions.get(bond);
  if (s === undefined) return 0;
  return g.bonds[bond]!.a === from ? s : -s;
}

/** The SMILES bond symbol of a single bond with direction u (0: none). */
export const directionSymbol = (u: number): string => (u > 0 ? '/' : u < 0 ? '\\' : '');

/** The same SMILES with every bond direction reversed: each double bond keeps its E/Z. */
export const reverseDirections = (smiles: string): string => smiles.replace(/[/\\]/g, (c) => (c === '/' ? '\\' : '/'));

/** The same SMILES without bond directions: every double bond's E/Z unspecified. */
export const withoutDirections = (smiles: string): string => smiles.replace(/[/\\]/g, '');
