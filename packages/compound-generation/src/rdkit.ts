// One RDKit WebAssembly module per process, loaded on first use. Mol handles live in WASM memory and must be
// deleted explicitly: every helper here frees what it creates.
import initRDKitModule from '@rdkit/rdkit';
import type { MainModule, Mol } from '@rdkit/rdkit';
import { smilesBoundsProblem } from './smiles-bounds.js';

export type RDKit = MainModule;
export type { Mol };

let loading: Promise<RDKit> | undefined;

/** The shared RDKit module (WASM instantiation takes ~0.3 s; later calls are free). */
// Deliberate copy: docking/src/prepare/rdkit.ts loads its own (neither package depends on the other).
export function loadRDKit(): Promise<RDKit> {
  loading ??= (initRDKitModule as unknown as () => Promise<RDKit>)().then((rd) => {
    rd.disable_logging();
    return rd;
  });
  return loading;
}

/**
 * Parses SMILES (or returns null for an unparsable/unsanitizable one) without RDKit's error log noise. A SMILES
 * beyond SMILES_LIMITS never reaches RDKit (see smiles-bounds.ts): it is null too.
 */
export function parseSmiles(rd: RDKit, smiles: string): Mol | null {
  if (!smiles || smiles.length > 2000 || smilesBoundsProblem(smiles) !== undefined) return null;
  const mol = rd.get_mol(smiles);
  if (!mol) return null;
  if (!mol.is_valid()) {
    mol.delete();
    return null;
  }
  return mol;
}

interface CompiledQuery {
  mol: Mol;
  /** RDKit pattern fingerprint of the query: a molecule lacking any of these bits cannot match. */
  fp: Uint32Array;
}
const queryCache = new Map<string, CompiledQuery>();

const toWords = (u: Uint8Array): Uint32Array =>
  new Uint32Array(u.buffer.slice(u.byteOffset, u.byteOffset + u.byteLength));

/** A compiled SMARTS query, cached for the process lifetime (the set of patterns is small and fixed). */
function compiled(rd: RDKit, smarts: string): CompiledQuery {
  let q = queryCache.get(smarts);
  if (!q) {
    const parsed = rd.get_qmol(smarts);
    if (!parsed?.is_valid()) throw new Error(`invalid SMARTS in engine data: ${smarts}`);
    q = { mol: parsed, fp: toWords(parsed.get_pattern_fp_as_uint8array() as Uint8Array) };
    queryCache.set(smarts, q);
  }
  return q;
}

/**
 * A molecule's RDKit pattern fingerprint, for screening substructure queries (as RDKit's SubstructLibrary
 * does): a query whose pattern bits are not all set in the molecule's cannot match, so the full match is skipped.
 */
export function patternFingerprint(mol: Mol): Uint32Array {
  return toWords(mol.get_pattern_fp_as_uint8array() as Uint8Array);
}

function screenedOut(q: CompiledQuery, molFp: Uint32Array | undefined): boolean {
  if (!molFp) return false;
  const f = q.fp;
  for (let w = 0; w < f.length; w++) if ((f[w]! & ~molFp[w]!) !== 0) return true;
  return false;
}

/** Unique substructure matches (RDKit semantics: uniquify, at most 1000), as atom index tuples. */
export function substructMatches(rd: RDKit, mol: Mol, smarts: string, molFp?: Uint32Array): number[][] {
  const q = compiled(rd, smarts);
  if (screenedOut(q, molFp)) return [];
  const json = mol.get_substruct_matches(q.mol);
  if (!json || json === '{}' || json === '[]') return [];
  const parsed = JSON.parse(json) as Array<{ atoms: number[] }> | { atoms: number[] };
  return Array.isArray(parsed) ? parsed.map((m) => m.atoms) : parsed.atoms ? [parsed.atoms] : [];
}

export function hasSubstructMatch(rd: RDKit, mol: Mol, smarts: string, molFp?: Uint32Array): boolean {
  const q = compiled(rd, smarts);
  if (screenedOut(q, molFp)) return false;
  const json = mol.get_substruct_match(q.mol);
  return json !== '{}' && json !== '';
}
