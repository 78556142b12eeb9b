// RDKit (WebAssembly) for what Open Babel does loosely: SMILES parsing with sanitization (Open Babel accepts a
// pentavalent carbon or an unclosed branch and converts it anyway), and reading stereo back from 3D coordinates
// to check the conformer kept the SMILES' stereochemistry. One module per process, loaded on first use;
// every Mol handle is deleted by the function that made it.
import initRDKitModule, { type MainModule, type Mol } from '@rdkit/rdkit';

let loading: Promise<MainModule> | undefined;

// Deliberate copy: compound-generation/src/rdkit.ts loads its own (neither package depends on the other).
export function loadRDKit(): Promise<MainModule> {
  loading ??= (initRDKitModule as unknown as () => Promise<MainModule>)().then((rd) => {
    rd.disable_logging();
    return rd;
  });
  return loading;
}

/** A sanitized molecule, or null; the caller deletes it. */
export function parseMol(rd: MainModule, text: string, details: Record<string, unknown> = {}): Mol | null {
  const mol = Object.keys(details).length ? rd.get_mol(text, JSON.stringify(details)) : rd.get_mol(text);
  if (!mol) return null;
  if (!mol.is_valid()) {
    mol.delete();
    return null;
  }
  return mol;
}

export function withMol<T>(mol: Mol, fn: (m: Mol) => T): T {
  try {
    return fn(mol);
  } finally {
    mol.delete();
  }
}
