// One RDKit WebAssembly module per process, loaded on first use. Mol handles live in WASM memory and must be
// deleted explicitly: every helper here frees what it creates.
import initRDKitModule from '@rdkit/rdkit';
import type { MainModule, Mol } from '@rdkit/rdkit';

export type RDKit = MainModule;
export type { Mol };

let loading: Promise<RDKit> | undefined;

/** The shared RDKit module (WASM instantiation takes ~0.3 s; later calls are free). */
export function loadRDKit(): Promise<RDKit> {
  loading ??= (initRDKitModule as unknown as () => Promise<RDKit>)().then((rd) => {
    rd.disable_logging();
    return rd;
  });
  return loading;
}

/** Parses SMILES (or returns null for an unparsable/unsanitizable one) without RDKit's error log noise. */
export function parseSmiles(rd: RDKit, smiles: string): Mol | null {
  if (!smiles || smiles.length > 2000) return null;
  const mol = rd.get_mol(smiles);
  if (!mol) return null;
  if (!mol.is_valid()) {
    mol.delete();
    return null;
  }
  return mol;
}

/** Runs fn with a parsed mol and frees it afterwards; null when the SMILES is invalid. */
export function withMol<T>(rd: RDKit, smiles: string, fn: (mol: Mol) => T): T | null {
  const mol = parseSmiles(rd, smiles);
  if (!mol) return null;
  try {
    return fn(mol);
  } finally {
    mol.delete();
  }
}

const queryCache = new Map<string, Mol>();

/** A compiled SMARTS query, cached for the process lifetime (the set of patterns is small and fixed). */
export function smartsQuery(rd: RDKit, smarts: string): Mol {
  let q = queryCache.get(smarts);
  if (!q) {
    const parsed = rd.get_qmol(smarts);
    if (!parsed || !parsed.is_valid()) throw new Error(`invalid SMARTS in engine data: ${smarts}`);
    q = parsed;
    queryCache.set(smarts, q);
  }
  return q;
}

/** Unique substructure matches (RDKit semantics: uniquify, at most 1000), as atom index tuples. */
export function substructMatches(mol: Mol, query: Mol): number[][] {
  const json = mol.get_substruct_matches(query);
  if (!json || json === '{}' || json === '[]') return [];
  const parsed = JSON.parse(json) as Array<{ atoms: number[] }> | { atoms: number[] };
  return Array.isArray(parsed) ? parsed.map((m) => m.atoms) : parsed.atoms ? [parsed.atoms] : [];
}

export function hasSubstructMatch(mol: Mol, query: Mol): boolean {
  const json = mol.get_substruct_match(query);
  return json !== '{}' && json !== '';
}
