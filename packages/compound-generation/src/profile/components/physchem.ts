// REINVENT 4's RDKit descriptor components (reinvent_plugins/components/RDKit/comp_physchem.py, comp_tpsa.py,
// comp_rdkit_descriptors.py, SAScore/comp_sascore.py) on RDKit's WebAssembly build and this package's own QED,
// SA score and BertzCT. No parameters, except TPSA's includeSandP and RDKitDescriptors' descriptor.
import { qedInputs } from '../../chem/describe.js';
import { qedFromProperties } from '../../chem/qed.js';
import { saScore as computeSa } from '../../chem/sa-score.js';
import { substructMatches } from '../../rdkit.js';
import type { RawValue } from '../external/protocol.js';
import type { MoleculeContext } from '../molecule.js';
import type { ComponentDef, ComponentImpl } from './types.js';

type Descriptor = (m: MoleculeContext) => number;

const d =
  (key: string): Descriptor =>
  (m) =>
    m.descriptors()[key] ?? Number.NaN;

const countMatches =
  (smarts: string): Descriptor =>
  (m) =>
    substructMatches(m.rd, m.mol, smarts, m.patternFp()).length;

/** QED and SA unrounded (describeMolecule rounds them to 5 decimals for display). */
const qed: Descriptor = (m) => {
  const d = m.descriptors() as Parameters<typeof qedInputs>[3];
  return qedFromProperties(qedInputs(m.rd, m.mol, m.graph(), d, m.patternFp()).qedProperties);
};
const sa: Descriptor = (m) => {
  const a = m.analysis();
  const ds = m.descriptors();
  return computeSa({
    morgan: a.morgan,
    numAtoms: a.graph.z.length,
    stereoCentres: ds.NumAtomStereoCenters ?? 0,
    spiroAtoms: ds.NumSpiroAtoms ?? 0,
    bridgeheadAtoms: ds.NumBridgeheadAtoms ?? 0,
    ringSizes: a.graph.rings.map((r) => r.length),
  });
};

function graphLength(m: MoleculeContext): number {
  const dist = m.distances();
  let max = 0;
  for (const v of dist) if (v < 1e8 && v > max) max = v;
  return max;
}

function largestRing(m: MoleculeContext): number {
  return m.graph().rings.reduce((a, r) => Math.max(a, r.length), 0);
}

/** REINVENT's descriptor components and how each is computed. */
const PHYSCHEM: ReadonlyArray<[name: string, descriptor: Descriptor]> = [
  ['Qed', qed],
  ['MolecularWeight', d('amw')],
  ['GraphLength', graphLength],
  ['NumAtomStereoCenters', d('NumAtomStereoCenters')],
  ['HBondAcceptors', d('NumHBA')],
  ['HBondDonors', d('NumHBD')],
  ['NumRotBond', d('NumRotatableBonds')],
  ['Csp3', d('FractionCSP3')],
  ['numsp', countMatches('[^1]')],
  ['numsp2', countMatches('[^2]')],
  ['numsp3', countMatches('[^3]')],
  ['NumHeavyAtoms', d('NumHeavyAtoms')],
  ['NumHeteroAtoms', d('NumHeteroatoms')],
  ['NumRings', d('NumRings')],
  ['NumAromaticRings', d('NumAromaticRings')],
  ['NumAliphaticRings', d('NumAliphaticRings')],
  ['SlogP', d('CrippenClogP')],
  ['LargestRingSize', largestRing],
];

function single(f: Descriptor, endpoints: number): ComponentImpl {
  return {
    compute: (mols) => {
      const values = mols.map((m): RawValue => f(m));
      return Array.from({ length: endpoints }, () => values);
    },
  };
}

const physchem: ComponentDef[] = PHYSCHEM.map(([name, f]) => ({
  name,
  role: 'score',
  reinvent: true,
  params: [],
  build: (endpoints) => {
    for (const p of endpoints) p.finish(name, []);
    return single(f, endpoints.length);
  },
}));

const tpsa: ComponentDef = {
  name: 'TPSA',
  role: 'score',
  reinvent: true,
  params: ['includeSandP'],
  build(endpoints) {
    for (const p of endpoints) {
      if (p.boolean('includeSandP', false)) {
        p.problem('includeSandP', "TPSA with S and P is not supported (RDKit's WebAssembly build counts N and O only)");
      }
      p.finish('TPSA', ['includeSandP']);
    }
    return single(d('tpsa'), endpoints.length);
  },
};

const saScore: ComponentDef = {
  name: 'SAScore',
  role: 'score',
  reinvent: true,
  params: [],
  build(endpoints) {
    for (const p of endpoints) p.finish('SAScore', []);
    // The raw SA score (1 easy .. 10 hard), unrounded.
    return single(sa, endpoints.length);
  },
};

/** RDKit descriptor names (rdkit.Chem.Descriptors) this package computes, for RDKitDescriptors. */
const RDKIT_DESCRIPTORS: Readonly<Record<string, Descriptor>> = {
  MolWt: d('amw'),
  ExactMolWt: d('exactmw'),
  MolLogP: d('CrippenClogP'),
  MolMR: d('CrippenMR'),
  TPSA: d('tpsa'),
  LabuteASA: d('labuteASA'),
  NumHDonors: d('NumHBD'),
  NumHAcceptors: d('NumHBA'),
  NHOHCount: d('lipinskiHBD'),
  NOCount: d('lipinskiHBA'),
  NumRotatableBonds: d('NumRotatableBonds'),
  RingCount: d('NumRings'),
  NumAromaticRings: d('NumAromaticRings'),
  NumAliphaticRings: d('NumAliphaticRings'),
  NumSaturatedRings: d('NumSaturatedRings'),
  NumAromaticHeterocycles: d('NumAromaticHeterocycles'),
  NumSaturatedHeterocycles: d('NumSaturatedHeterocycles'),
  NumAliphaticHeterocycles: d('NumAliphaticHeterocycles'),
  HeavyAtomCount: d('NumHeavyAtoms'),
  NumHeteroatoms: d('NumHeteroatoms'),
  FractionCSP3: d('FractionCSP3'),
  HallKierAlpha: d('hallKierAlpha'),
  Kappa1: d('kappa1'),
  Kappa2: d('kappa2'),
  Kappa3: d('kappa3'),
  Chi0v: d('chi0v'),
  Chi1v: d('chi1v'),
  Chi2v: d('chi2v'),
  Chi3v: d('chi3v'),
  Chi4v: d('chi4v'),
  Chi0n: d('chi0n'),
  Chi1n: d('chi1n'),
  Chi2n: d('chi2n'),
  Chi3n: d('chi3n'),
  Chi4n: d('chi4n'),
  BertzCT: (m) => m.bertz(),
  qed,
};
const DESCRIPTOR_BY_KEY = new Map(Object.entries(RDKIT_DESCRIPTORS).map(([k, f]) => [k.toLowerCase(), f]));

const rdkitDescriptors: ComponentDef = {
  name: 'RDKitDescriptors',
  role: 'score',
  reinvent: true,
  params: ['descriptor'],
  build(endpoints) {
    const fs = endpoints.map((p) => {
      const name = p.string('descriptor');
      const f = DESCRIPTOR_BY_KEY.get(name.toLowerCase());
      if (name && !f) {
        p.problem(
          'descriptor',
          `unknown or unsupported RDKit descriptor "${name}" (supported: ${Object.keys(RDKIT_DESCRIPTORS).join(', ')})`,
        );
      }
      p.finish('RDKitDescriptors', ['descriptor']);
      return f ?? (() => Number.NaN);
    });
    return { compute: (mols) => fs.map((f) => mols.map((m): RawValue => f(m))) };
  },
};

export const PHYSCHEM_COMPONENTS: readonly ComponentDef[] = [...physchem, tpsa, saScore, rdkitDescriptors];
