// Med-chem alerts (data/medchem-alerts.json): groups a medicinal chemist would strike although they sanitize and
// raise QED - formaldehyde-releasing aminals, keto tautomers of phenols, Michael acceptors, monofluorides,
// oxidisable dihydro-heteroaromatics, vinyl arenes. Reported as "medchem:<name>", a hard filter like the other
// alerts; Michael acceptors stop filtering when the request asks for covalent design.
import { readDataJson } from '../data.js';
import { hasSubstructMatch, substructMatches, type Mol, type RDKit } from '../rdkit.js';

export type MedchemGroup =
  | 'formaldehyde_release'
  | 'phenol_keto_tautomer'
  | 'michael_acceptor'
  | 'monofluoride'
  | 'oxidisable_dihydroarene'
  | 'vinyl_arene';

/** One documented alert, as stored in data/medchem-alerts.json. */
export interface MedchemAlert {
  name: string;
  group: MedchemGroup;
  smarts: string;
  /** Why a chemist strikes it. */
  reason: string;
  /** SMILES the alert must match. */
  positives: string[];
  /** SMILES it must not match (often the neighbouring case another alert covers). */
  negatives: string[];
  /** Existing alerts ("unwanted:<SMARTS>", "stability:<name>") that report the neighbouring cases left out here. */
  covered_by: string[];
  notes: string;
}

let table: MedchemAlert[] | undefined;
export function medchemAlerts(): MedchemAlert[] {
  table ??= readDataJson<{ alerts: MedchemAlert[] }>('medchem-alerts.json').alerts;
  return table;
}

/** Names of the med-chem alerts a molecule matches, e.g. "medchem:vinyl_arene". */
export function medchemHits(rd: RDKit, mol: Mol, molFp?: Uint32Array): string[] {
  const hits: string[] = [];
  for (const a of medchemAlerts()) if (hasSubstructMatch(rd, mol, a.smarts, molFp)) hits.push(`medchem:${a.name}`);
  return hits;
}

/**
 * QED's unwanted groups (Brenk et al.) that are Michael acceptors: the acyclic cases (acrylamides, acrylates,
 * vinyl ketones, acrylonitriles, ynones, alkynyl sulfones) that the medchem list leaves to them. Under covalent
 * design they are reported but do not filter, like medchem's own michael_* alerts.
 */
export const MICHAEL_ACCEPTOR_UNWANTED: readonly string[] = [
  'unwanted:C=!@CC=[O,S]',
  'unwanted:C=[C!r]C#N',
  'unwanted:C=C(C=O)C=O',
  'unwanted:[$([CH]),$(CC)]#CC(=O)[#6]',
  'unwanted:[$([CH]),$(CC)]#CC(=O)O[#6]',
  'unwanted:[$([CH]),$(CC)]#CS(=O)(=O)[#6]',
];

/** QED's catch-all alkyne alert: under covalent design it stops filtering only if every alkyne is a warhead. */
const ALKYNE_ALERT = 'unwanted:C#C';
const ALKYNE = 'C#C';
/** An alkyne conjugated to a carbonyl or sulfonyl (ynones, ynamides such as acalabrutinib's, alkynyl sulfones). */
const ACTIVATED_ALKYNE = 'C#C-[$([#6]=O),$([SX4](=O)=O)]';

let michaelNames: Set<string> | undefined;
/** Whether an alert name denotes a Michael acceptor (medchem group michael_acceptor, or the unwanted ones above). */
export function isMichaelAcceptorAlert(name: string): boolean {
  michaelNames ??= new Set([
    ...MICHAEL_ACCEPTOR_UNWANTED,
    ...medchemAlerts()
      .filter((a) => a.group === 'michael_acceptor')
      .map((a) => `medchem:${a.name}`),
  ]);
  return michaelNames.has(name);
}

/** Every C#C of the molecule is an activated alkyne (so QED's alkyne alert names a warhead, nothing else). */
function alkynesAreWarheads(rd: RDKit, mol: Mol, molFp?: Uint32Array): boolean {
  const key = (m: number[]) => [m[0]!, m[1]!].sort((x, y) => x - y).join('-');
  const all = new Set(substructMatches(rd, mol, ALKYNE, molFp).map(key));
  const activated = new Set(substructMatches(rd, mol, ACTIVATED_ALKYNE, molFp).map(key));
  return all.size > 0 && [...all].every((k) => activated.has(k));
}

/**
 * The alerts that exclude a molecule. All of them, except that with `covalent_design` Michael acceptors (and QED's
 * alkyne alert when every alkyne is an activated one) are only reported. `allow_alerts` is the caller's business.
 */
export function blockingAlerts(
  rd: RDKit,
  mol: Mol,
  alerts: readonly string[],
  options: { covalent_design?: boolean },
  molFp?: Uint32Array,
): string[] {
  if (!options.covalent_design) return [...alerts];
  return alerts.filter((a) => {
    if (isMichaelAcceptorAlert(a)) return false;
    if (a === ALKYNE_ALERT) return !alkynesAreWarheads(rd, mol, molFp);
    return true;
  });
}
