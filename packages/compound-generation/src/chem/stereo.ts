// Stereochemistry that a SMILES leaves open: which tetrahedral centres and double bonds are unspecified, and the
// stereoisomers they stand for. MinimalLib has no EnumerateStereoisomers, so this writes each combination into
// RDKit's JSON form (atom "cw"/"ccw", bond "cis"/"trans") and lets RDKit canonicalise it: duplicates, meso forms
// and pseudo-asymmetric centres collapse to one canonical isomeric SMILES.
import { InvalidRequestError, InvalidSmilesError } from '../errors.js';
import { parseSmiles, type Mol, type RDKit } from '../rdkit.js';

/** Counts of stereo elements (snake_case: these cross the wire in results). */
export interface StereoCounts {
  tetrahedral_unspecified: number;
  tetrahedral_specified: number;
  double_bond_unspecified: number;
  double_bond_specified: number;
}

export interface StereoisomerEnumeration {
  /** Canonical isomeric SMILES of each stereoisomer; the input (canonicalised) when nothing is unspecified. */
  isomers: string[];
  /** More stereoisomers exist than returned (or the combinations could not all be tried). */
  capped: boolean;
  /** The input's stereo elements. */
  stereo: StereoCounts;
}

/** Largest `max` accepted (each isomer is docked downstream). */
export const STEREOISOMERS_MAX = 1024;
/** Combinations tried beyond those needed: enough for every molecule with up to 8 open elements. */
const MIN_TRIES = 256;

interface JsonAtom {
  stereo?: string;
}
interface JsonBond {
  bo?: number;
  atoms: [number, number];
  stereo?: string;
  stereoAtoms?: [number, number];
}
interface JsonDoc {
  defaults: { atom: { stereo?: string; z?: number }; bond: { bo?: number; stereo?: string } };
  molecules: Array<{
    atoms: Array<JsonAtom & { z?: number }>;
    bonds: JsonBond[];
    extensions?: Array<{ name: string; aromaticBonds?: number[]; atomRings?: number[][] }>;
  }>;
}

/** An unspecified double bond with the neighbours its cis/trans label refers to. */
interface OpenBond {
  bond: number;
  refs: [number, number];
}

interface Analysis {
  doc: JsonDoc;
  openAtoms: number[];
  openBonds: OpenBond[];
  counts: StereoCounts;
}

/**
 * Runs fn with RDKit's current stereo perception (the "new" algorithm), which, unlike the legacy one the rest of
 * the engine uses to agree with RDKit 2022.09, sees ring stereocentres such as cis/trans-1,4-disubstituted
 * cyclohexanes. The setting is module-global, so it is restored before returning (fn is synchronous).
 */
function withModernStereo<T>(rd: RDKit, fn: () => T): T {
  const previous = rd.use_legacy_stereo_perception(false);
  try {
    return fn();
  } finally {
    rd.use_legacy_stereo_perception(previous);
  }
}

/**
 * Canonical isomeric SMILES of a JSON document with stereo set, or null if RDKit refuses it. `legacy`: read it
 * with the legacy perception, which keeps cis/trans labels only as bond directions (so it loses the JSON's
 * double-bond labels) but, unlike the new one in RDKit 2026.09, reads every tetrahedral combination of a
 * symmetric ring faithfully (all 9 inositols; the new perception turns one of the 64 combinations into another
 * isomer). Tetrahedral-only enumerations therefore use it; the engine's canonical SMILES are legacy ones too.
 */
function render(rd: RDKit, doc: JsonDoc, legacy: boolean): string | null {
  const previous = rd.use_legacy_stereo_perception(legacy);
  let m: Mol | null;
  try {
    m = rd.get_mol(JSON.stringify(doc));
  } finally {
    rd.use_legacy_stereo_perception(previous);
  }
  if (!m) return null;
  try {
    return m.is_valid() ? m.get_smiles() : null;
  } finally {
    m.delete();
  }
}

const isSpecifiedAtom = (s: string | undefined) => s === 'cw' || s === 'ccw';
const isSpecifiedBond = (s: string | undefined) => s === 'cis' || s === 'trans';

/** The copy of doc with the given stereo choices applied (bit i of combo: element i's second option). */
function withChoices(doc: JsonDoc, atoms: number[], bonds: OpenBond[], choose: (i: number) => boolean): JsonDoc {
  const d = structuredClone(doc);
  const m = d.molecules[0]!;
  atoms.forEach((a, i) => {
    m.atoms[a] = { ...m.atoms[a], stereo: choose(i) ? 'ccw' : 'cw' };
  });
  bonds.forEach((b, j) => {
    m.bonds[b.bond] = { ...m.bonds[b.bond]!, stereo: choose(atoms.length + j) ? 'trans' : 'cis', stereoAtoms: b.refs };
  });
  return d;
}

function analyse(rd: RDKit, mol: Mol): Analysis {
  const doc = JSON.parse(mol.get_json()) as JsonDoc;
  const m = doc.molecules[0]!;
  const atomStereo = (i: number) => m.atoms[i]?.stereo ?? doc.defaults.atom.stereo;
  const bondStereo = (b: JsonBond) => b.stereo ?? doc.defaults.bond.stereo;
  const tags = JSON.parse(mol.get_stereo_tags()) as { CIP_atoms?: Array<[number, string]> };
  // RDKit lists every possible tetrahedral stereocentre in the tags, specified or not.
  const centres = (tags.CIP_atoms ?? []).map(([i]) => i);
  const openAtoms = centres.filter((i) => !isSpecifiedAtom(atomStereo(i)));
  const tetrahedralSpecified = m.atoms.filter((_, i) => isSpecifiedAtom(atomStereo(i))).length;

  // Double bonds: RDKit's tags omit unspecified ones, so candidates are checked by canonicalising both labels.
  const ext = m.extensions?.find((e) => e.name === 'rdkitRepresentation');
  const aromatic = new Set(ext?.aromaticBonds ?? []);
  const rings = ext?.atomRings ?? [];
  const z = (i: number) => m.atoms[i]?.z ?? doc.defaults.atom.z ?? 6;
  const heavyNeighbours: number[][] = m.atoms.map(() => []);
  for (const b of m.bonds) {
    heavyNeighbours[b.atoms[0]]!.push(b.atoms[1]);
    heavyNeighbours[b.atoms[1]]!.push(b.atoms[0]);
  }
  const smallestRing = (a: number, c: number) => {
    let best = Infinity;
    for (const r of rings) {
      const i = r.indexOf(a);
      if (i < 0) continue;
      const next = r[(i + 1) % r.length];
      const prev = r[(i - 1 + r.length) % r.length];
      if ((next === c || prev === c) && r.length < best) best = r.length;
    }
    return best;
  };
  let doubleSpecified = 0;
  const openBonds: OpenBond[] = [];
  m.bonds.forEach((b, i) => {
    if ((b.bo ?? doc.defaults.bond.bo) !== 2 || aromatic.has(i)) return;
    if (isSpecifiedBond(bondStereo(b))) {
      doubleSpecified++;
      return;
    }
    const [a, c] = b.atoms;
    if (![6, 7].includes(z(a)) || ![6, 7].includes(z(c))) return;
    // cis/trans is impossible inside rings of up to 7 atoms
    if (smallestRing(a, c) < 8) return;
    const ra = heavyNeighbours[a]!.find((x) => x !== c);
    const rc = heavyNeighbours[c]!.find((x) => x !== a);
    if (ra === undefined || rc === undefined) return;
    const open: OpenBond = { bond: i, refs: [ra, rc] };
    const cis = render(
      rd,
      withChoices(doc, [], [open], () => false),
      false,
    );
    const trans = render(
      rd,
      withChoices(doc, [], [open], () => true),
      false,
    );
    if (cis !== null && trans !== null && cis !== trans) openBonds.push(open);
  });
  return {
    doc,
    openAtoms,
    openBonds,
    counts: {
      tetrahedral_unspecified: openAtoms.length,
      tetrahedral_specified: tetrahedralSpecified,
      double_bond_unspecified: openBonds.length,
      double_bond_specified: doubleSpecified,
    },
  };
}

/** Specified and unspecified stereo elements of a molecule (tetrahedral centres, including ring cis/trans pairs). */
export function unspecifiedStereo(rd: RDKit, mol: Mol): StereoCounts {
  const smiles = mol.get_smiles();
  return withModernStereo(rd, () => {
    const again = parseSmiles(rd, smiles);
    if (!again) throw new InvalidSmilesError(smiles);
    try {
      return analyse(rd, again).counts;
    } finally {
      again.delete();
    }
  });
}

/**
 * Every stereoisomer a SMILES stands for: all combinations of its unspecified tetrahedral centres and double
 * bonds (specified ones are kept), each as canonical isomeric SMILES, distinct, in a fixed order (the first
 * element varies fastest). At most `max` are returned; `capped` says more exist or were not all tried.
 */
export function enumerateStereoisomers(
  rd: RDKit,
  smiles: string,
  { max = 8 }: { max?: number } = {},
): StereoisomerEnumeration {
  if (!Number.isInteger(max) || max < 1 || max > STEREOISOMERS_MAX)
    throw new InvalidRequestError([{ path: '/max', message: `must be an integer between 1 and ${STEREOISOMERS_MAX}` }]);
  // The engine's canonical form (legacy perception), returned as is when nothing is open.
  const input = parseSmiles(rd, smiles);
  if (!input) throw new InvalidSmilesError(smiles);
  let canonical: string;
  try {
    canonical = input.get_smiles();
  } finally {
    input.delete();
  }
  return withModernStereo(rd, () => {
    const mol = parseSmiles(rd, smiles);
    if (!mol) throw new InvalidSmilesError(smiles);
    let a: Analysis;
    try {
      a = analyse(rd, mol);
    } finally {
      mol.delete();
    }
    const n = a.openAtoms.length + a.openBonds.length;
    if (n === 0) return { isomers: [canonical], capped: false, stereo: a.counts };
    const combinations = 2 ** n;
    const tries = Math.min(combinations, Math.max(MIN_TRIES, 4 * max));
    const found = new Set<string>();
    const legacy = a.openBonds.length === 0 && a.counts.double_bond_specified === 0;
    let combo = 0;
    // Collect one more than asked: finding it proves the cap was reached.
    for (; combo < tries && found.size <= max; combo++) {
      const c = combo;
      const choice = (i: number) => Math.floor(c / 2 ** i) % 2 === 1;
      const s = render(rd, withChoices(a.doc, a.openAtoms, a.openBonds, choice), legacy);
      if (s !== null) found.add(s);
    }
    const isomers = [...found].slice(0, max);
    const capped = found.size > max || combo < combinations;
    return { isomers, capped, stereo: a.counts };
  });
}
