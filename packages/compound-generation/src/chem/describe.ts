// describeMolecule: the property set every returned molecule carries, computed with RDKit (WebAssembly) for
// the standard descriptors and with this package's QED and SA implementations.
import { InvalidSmilesError } from '../errors.js';
import { loadRDKit, parseSmiles, patternFingerprint, type Mol, type RDKit } from '../rdkit.js';
import { molGraph, type MolGraph } from './graph.js';
import { morganCounts } from './morgan.js';
import { qedAcceptors, qedAlertHits, qedAromaticRings, qedFromProperties, type QedProperties } from './qed.js';
import { saScore } from './sa-score.js';

/** Molecular properties, snake_case as they appear in results. Definitions in the package README. */
export interface MoleculeProperties {
  /** Average molecular weight (Da), RDKit MolWt. */
  mw: number;
  /** Monoisotopic mass (Da), RDKit ExactMolWt. */
  exact_mw: number;
  /** Wildman-Crippen logP, RDKit MolLogP. */
  logp: number;
  /** H-bond donors, RDKit NumHBD. */
  hbd: number;
  /** H-bond acceptors, RDKit NumHBA (current RDKit definition). */
  hba: number;
  /** Lipinski's donor count: N-H and O-H (RDKit NHOHCount). */
  lipinski_hbd: number;
  /** Lipinski's acceptor count: N and O atoms (RDKit NOCount). */
  lipinski_hba: number;
  /** Topological polar surface area (Å², Ertl 2000; N and O only), RDKit TPSA. */
  tpsa: number;
  rotatable_bonds: number;
  rings: number;
  aromatic_rings: number;
  heavy_atoms: number;
  /** Sum of formal charges. */
  formal_charge: number;
  fraction_csp3: number;
  /** Specified plus unspecified tetrahedral stereocentres (RDKit's count). */
  stereocentres: number;
  /** QED, weighted with the paper's mean weights (0..1, higher is more drug-like). */
  qed: number;
  /** Synthetic accessibility (1 easy .. 10 hard). */
  sa_score: number;
  /** Rule-of-five violations: mw > 500, logp > 5, lipinski_hbd > 5, lipinski_hba > 10. */
  lipinski_violations: number;
}

interface RDKitDescriptors {
  amw: number;
  exactmw: number;
  CrippenClogP: number;
  NumHBD: number;
  NumHBA: number;
  lipinskiHBD: number;
  lipinskiHBA: number;
  tpsa: number;
  NumRotatableBonds: number;
  NumRings: number;
  NumAromaticRings: number;
  NumHeavyAtoms: number;
  FractionCSP3: number;
  NumAtomStereoCenters: number;
  NumSpiroAtoms: number;
  NumBridgeheadAtoms: number;
}

/** Everything computed for one molecule; `properties` is the public part. */
export interface MolAnalysis {
  smiles: string;
  graph: MolGraph;
  properties: MoleculeProperties;
  qedProperties: QedProperties;
  /** Indices of matched QED structural alerts. */
  qedAlerts: number[];
  /** Unhashed Morgan radius-2 environment counts. */
  morgan: Map<number, number>;
  /** RDKit pattern fingerprint (substructure screening). */
  patternFp: Uint32Array;
}

const round = (x: number, d: number) => {
  const f = 10 ** d;
  return Math.round(x * f) / f;
};

/** QED's eight inputs and the structural alerts matched (what analyseMol and scoring profiles both need). */
export function qedInputs(
  rd: RDKit,
  mol: Mol,
  graph: MolGraph,
  d: Pick<RDKitDescriptors, 'amw' | 'CrippenClogP' | 'NumHBD' | 'tpsa' | 'NumRotatableBonds'>,
  patternFp: Uint32Array,
): { qedProperties: QedProperties; qedAlerts: number[] } {
  const qedAlerts = qedAlertHits(rd, mol, patternFp);
  const qedProperties: QedProperties = {
    MW: d.amw,
    ALOGP: d.CrippenClogP,
    HBA: qedAcceptors(rd, mol, patternFp),
    HBD: d.NumHBD,
    PSA: d.tpsa,
    ROTB: d.NumRotatableBonds,
    AROM: qedAromaticRings(rd, mol, graph, patternFp),
    ALERTS: qedAlerts.length,
  };
  return { qedProperties, qedAlerts };
}

export function analyseMol(rd: RDKit, mol: Mol, graph: MolGraph = molGraph(mol)): MolAnalysis {
  const d = JSON.parse(mol.get_descriptors()) as RDKitDescriptors;
  const patternFp = patternFingerprint(mol);
  const { qedProperties, qedAlerts } = qedInputs(rd, mol, graph, d, patternFp);
  const qed = qedFromProperties(qedProperties);
  const morgan = morganCounts(graph, 2);
  const sa = saScore({
    morgan,
    numAtoms: graph.z.length,
    stereoCentres: d.NumAtomStereoCenters,
    spiroAtoms: d.NumSpiroAtoms,
    bridgeheadAtoms: d.NumBridgeheadAtoms,
    ringSizes: graph.rings.map((r) => r.length),
  });
  const violations =
    Number(d.amw > 500) + Number(d.CrippenClogP > 5) + Number(d.lipinskiHBD > 5) + Number(d.lipinskiHBA > 10);
  const properties: MoleculeProperties = {
    mw: round(d.amw, 3),
    exact_mw: round(d.exactmw, 5),
    logp: round(d.CrippenClogP, 4),
    hbd: d.NumHBD,
    hba: d.NumHBA,
    lipinski_hbd: d.lipinskiHBD,
    lipinski_hba: d.lipinskiHBA,
    tpsa: round(d.tpsa, 2),
    rotatable_bonds: d.NumRotatableBonds,
    rings: d.NumRings,
    aromatic_rings: d.NumAromaticRings,
    heavy_atoms: d.NumHeavyAtoms,
    formal_charge: graph.charge.reduce((a, b) => a + b, 0),
    fraction_csp3: round(d.FractionCSP3, 4),
    stereocentres: d.NumAtomStereoCenters,
    qed: round(qed, 5),
    sa_score: round(sa, 5),
    lipinski_violations: violations,
  };
  return { smiles: mol.get_smiles(), graph, properties, qedProperties, qedAlerts, morgan, patternFp };
}

/** Analyses a SMILES; throws InvalidSmilesError when RDKit cannot parse or sanitize it. */
export function analyseSmiles(rd: RDKit, smiles: string): MolAnalysis {
  const mol = parseSmiles(rd, smiles);
  if (!mol) throw new InvalidSmilesError(smiles);
  try {
    return analyseMol(rd, mol);
  } finally {
    mol.delete();
  }
}

/** The properties of a molecule given as SMILES (see MoleculeProperties); InvalidSmilesError if invalid. */
export async function describeMolecule(smiles: string): Promise<MoleculeProperties> {
  if (typeof smiles !== 'string') throw new InvalidSmilesError(String(smiles));
  return analyseSmiles(await loadRDKit(), smiles).properties;
}
