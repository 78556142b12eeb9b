// Closeness to a molecular formula, GuacaMol's IsomerScoringFunction (guacamol/common_scoring_functions.py): a
// Gaussian (sigma 1) on the count of each element of the formula, one (sigma 2) on the total number of atoms
// with hydrogens, combined by the geometric mean (or `mean = "arithmetic"`). 1 for an exact isomer. Not a
// REINVENT 4 component (this package's own, for GuacaMol's and PMO's isomer objectives).
import type { MoleculeContext } from '../molecule.js';
import type { RawValue } from '../external/protocol.js';
import type { ComponentDef } from './types.js';

// prettier-ignore
const SYMBOLS = (
  'H He Li Be B C N O F Ne Na Mg Al Si P S Cl Ar K Ca Sc Ti V Cr Mn Fe Co Ni Cu Zn Ga Ge As Se Br Kr ' +
  'Rb Sr Y Zr Nb Mo Tc Ru Rh Pd Ag Cd In Sn Sb Te I Xe Cs Ba La Ce Pr Nd Pm Sm Eu Gd Tb Dy Ho Er Tm Yb Lu Hf Ta W ' +
  'Re Os Ir Pt Au Hg Tl Pb Bi Po At Rn Fr Ra Ac Th Pa U Np Pu Am Cm Bk Cf Es Fm Md No Lr Rf Db Sg Bh Hs Mt Ds Rg ' +
  'Cn Nh Fl Mc Lv Ts Og'
).split(' ');
const ATOMIC_NUMBER = new Map(SYMBOLS.map((s, i) => [s, i + 1]));

/** GuacaMol's parse_molecular_formula: (element, count) in order of writing, a missing count being 1. */
export function parseFormula(formula: string): Array<[string, number]> | string {
  const out: Array<[string, number]> = [];
  const re = /([A-Z][a-z]*)(\d*)/gy;
  let m: RegExpExecArray | null = re.exec(formula);
  let end = 0;
  while (m) {
    if (!ATOMIC_NUMBER.has(m[1]!)) return `"${m[1]}" is not an element symbol`;
    out.push([m[1]!, m[2] ? Number(m[2]) : 1]);
    end = re.lastIndex;
    m = re.exec(formula);
  }
  if (out.length === 0 || end !== formula.length) return `"${formula}" is not a molecular formula such as C7H8N2O2`;
  return out;
}

const gaussian = (x: number, mu: number, sigma: number) => Math.exp(-0.5 * ((x - mu) / sigma) ** 2);

/** Atoms of each atomic number, hydrogens included (implicit ones too: RDKit's AddHs). */
function elementCounts(m: MoleculeContext): Map<number, number> {
  const g = m.graph();
  const counts = new Map<number, number>();
  for (const z of g.z) counts.set(z, (counts.get(z) ?? 0) + 1);
  const hs = g.hs.reduce((a, b) => a + b, 0);
  counts.set(1, (counts.get(1) ?? 0) + hs);
  return counts;
}

export function isomerScore(m: MoleculeContext, formula: ReadonlyArray<[string, number]>, mean: string): number {
  const counts = elementCounts(m);
  let total = 0;
  for (const c of counts.values()) total += c;
  const target = formula.reduce((a, [, n]) => a + n, 0);
  const scores = formula.map(([el, n]) => gaussian(counts.get(ATOMIC_NUMBER.get(el)!) ?? 0, n, 1));
  scores.push(gaussian(total, target, 2));
  if (mean === 'arithmetic') return scores.reduce((a, b) => a + b, 0) / scores.length;
  return scores.reduce((a, b) => a * b, 1) ** (1 / scores.length);
}

export const ISOMER: ComponentDef = {
  name: 'Isomer',
  role: 'score',
  reinvent: false,
  params: ['formula', 'mean'],
  build(endpoints) {
    const ends = endpoints.map((p) => {
      const text = p.string('formula');
      const mean = p.string('mean', { default: 'geometric', oneOf: ['geometric', 'arithmetic'] });
      p.finish('Isomer', ['formula', 'mean']);
      const parsed = text ? parseFormula(text) : [];
      if (typeof parsed === 'string') p.problem('formula', parsed);
      return { formula: typeof parsed === 'string' ? [] : parsed, mean };
    });
    return { compute: (mols) => ends.map((e) => mols.map((m): RawValue => isomerScore(m, e.formula, e.mean))) };
  },
};
