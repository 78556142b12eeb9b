// The generation request: validation (every problem named by JSON pointer), defaults and bounds.
import { InvalidRequestError, isWasmTrap, type FieldProblem } from './errors.js';
import { loadRDKit, parseSmiles, type Mol } from './rdkit.js';
import { SMILES_LIMITS, smilesBoundsProblem } from './smiles-bounds.js';
import { readTargetFields, type TargetRequest } from './target/request-target.js';
import { analyseTarget } from './target/site.js';
import { EvidentError } from '@evident/contract';

/** The request as it arrives (snake_case, as in the API). */
export interface GenerationRequest {
  target_uniprot: string;
  binding_site: { residues: string[] };
  constraints?: {
    mw_range?: [number, number];
    logp_range?: [number, number];
    hbd_max?: number;
    hba_max?: number;
  };
  num_molecules?: number;
  reference_ligands?: string[];
  /** Base64 of a PDB or mmCIF file (optionally gzip-compressed). */
  structure?: string;
  pdb_id?: string;
  chain?: string;
  pocket?: { center: [number, number, number]; size: [number, number, number] };
  options?: GenerationOptions;
}

export interface GenerationOptions {
  /** PRNG seed; equal seeds give equal runs. */
  seed?: number;
  /** Stop after this many distinct molecules have been scored. */
  max_evaluations?: number;
  /** No two returned molecules have Morgan (r=2, 2048 bits) Tanimoto above this. */
  similarity_cap?: number;
  population_size?: number;
  /** Keep molecules that match PAINS / unwanted-group alerts (they are still reported). */
  allow_alerts?: boolean;
  /** Include an RDKit SVG depiction per molecule. */
  include_svg?: boolean;
  /** Dock candidates into the target's structure with AutoDock Vina (default true). */
  docking?: boolean;
  /** Vina's search exhaustiveness per docking call (default 8, Vina's own). */
  docking_exhaustiveness?: number;
  /** Docking calls the run may make in all, each stereoisomer counting once (default 3 x num_molecules + 30). */
  docking_budget?: number;
  /** Covalent design: Michael acceptor alerts are reported but do not filter (src/chem/medchem.ts). */
  covalent_design?: boolean;
}

export interface Constraints {
  mw_range: [number, number];
  logp_range: [number, number];
  hbd_max: number;
  hba_max: number;
}

/** A validated request with every default filled in: what a job stores and the engine runs. */
export interface GenerationInput {
  target_uniprot: string;
  residues: string[];
  constraints: Constraints;
  num_molecules: number;
  /** Canonical SMILES of the reference ligands. */
  reference_ligands: string[];
  /** The structure, PDB id, chain and pocket the request gave (all may be absent). */
  target: TargetRequest;
  options: Required<GenerationOptions>;
}

export const DEFAULT_CONSTRAINTS: Constraints = { mw_range: [200, 500], logp_range: [-1, 5], hbd_max: 5, hba_max: 10 };
export const BOUNDS = {
  num_molecules: [1, 1000],
  mw: [0, 2000],
  mw_upper_min: 100,
  logp: [-10, 15],
  count_max: 50,
  residues: [1, 50],
  reference_ligands_max: 100,
  /** Per reference ligand, checked before RDKit parses it (see smiles-bounds.ts). */
  smiles: SMILES_LIMITS,
  max_evaluations: [100, 1_000_000],
  population_size: [10, 1000],
  docking_exhaustiveness: [1, 32],
  docking_budget: [1, 20_000],
} as const;
export const DEFAULT_NUM_MOLECULES = 20;
export const DEFAULT_SEED = 42;
export const DEFAULT_SIMILARITY_CAP = 0.65;
export const DEFAULT_POPULATION = 100;

/** Default evaluation budget: generous enough for the diversity cap at the requested count. */
export function defaultMaxEvaluations(numMolecules: number): number {
  return Math.min(200_000, Math.max(5_000, 150 * numMolecules));
}

/** Default docking budget: every returned molecule once with room for stereoisomers, plus the rounds. */
export function defaultDockingBudget(numMolecules: number): number {
  return Math.min(BOUNDS.docking_budget[1], 3 * numMolecules + 30);
}
export const DEFAULT_DOCKING_EXHAUSTIVENESS = 8;

// UniProtKB accession format (uniprot.org/help/accession_numbers), optionally with an isoform suffix.
export const UNIPROT_ACCESSION =
  /^(?:[OPQ][0-9][A-Z0-9]{3}[0-9]|[A-NR-Z][0-9](?:[A-Z][A-Z0-9]{2}[0-9]){1,2})(?:-[0-9]+)?$/;
export const RESIDUE_LABEL = /^[ACDEFGHIKLMNPQRSTVWY][1-9][0-9]{0,5}$/;

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

type Bad = (path: string, message: string) => void;

const KNOWN_FIELDS = new Set([
  'target_uniprot',
  'binding_site',
  'constraints',
  'num_molecules',
  'reference_ligands',
  'structure',
  'pdb_id',
  'chain',
  'pocket',
  'options',
  'callback_url',
]);

export async function validateRequest(raw: unknown): Promise<GenerationInput> {
  const problems: FieldProblem[] = [];
  const bad: Bad = (path, message) => problems.push({ path, message });
  if (!isObject(raw)) throw new InvalidRequestError([{ path: '', message: 'request must be a JSON object' }]);

  for (const k of Object.keys(raw)) if (!KNOWN_FIELDS.has(k)) bad(`/${k}`, 'unknown field');

  const acc = raw.target_uniprot;
  if (typeof acc !== 'string') bad('/target_uniprot', 'required: a UniProtKB accession such as "P00533"');
  else if (!UNIPROT_ACCESSION.test(acc))
    bad('/target_uniprot', `"${acc.slice(0, 40)}" is not a UniProtKB accession (e.g. P00533, A0A024R161)`);

  // in the order the problems are reported
  const residues = readResidues(raw.binding_site, bad);
  const constraints = readConstraints(raw.constraints ?? {}, bad);
  const numMolecules = readNumMolecules(raw.num_molecules, bad);
  const references = await readReferenceLigands(raw.reference_ligands, problems);
  const target = readTargetFields(raw, bad);
  const options = readOptions(raw.options ?? {}, numMolecules, bad);

  if (options.docking && options.docking_budget < numMolecules)
    bad(
      '/options/docking_budget',
      `must be at least num_molecules (${numMolecules}): every returned molecule is docked`,
    );
  if (problems.length) throw new InvalidRequestError(problems);
  if (target.structure !== null) checkStructure(target, acc as string, residues);
  return {
    target_uniprot: acc as string,
    residues,
    constraints,
    num_molecules: numMolecules,
    reference_ligands: [...new Set(references)],
    target,
    options,
  };
}

/** The binding site's residue labels, valid and distinct, in the request's order. */
function readResidues(site: unknown, bad: Bad): string[] {
  const residues: string[] = [];
  if (!isObject(site) || !Array.isArray(site.residues))
    bad('/binding_site/residues', 'required: a list of residues such as ["K721", "T790"]');
  else {
    const list = site.residues as unknown[];
    if (list.length < BOUNDS.residues[0] || list.length > BOUNDS.residues[1])
      bad('/binding_site/residues', `must list ${BOUNDS.residues[0]} to ${BOUNDS.residues[1]} residues`);
    const seen = new Set<string>();
    list.slice(0, 200).forEach((r, i) => {
      if (typeof r !== 'string' || !RESIDUE_LABEL.test(r)) {
        bad(
          `/binding_site/residues/${i}`,
          `${JSON.stringify(r)?.slice(0, 40)} is not a residue label: one-letter amino-acid code then a positive position, e.g. K721`,
        );
      } else if (seen.has(r)) bad(`/binding_site/residues/${i}`, `duplicate residue ${r}`);
      else {
        seen.add(r);
        residues.push(r);
      }
    });
  }
  return residues;
}

function readConstraints(c: unknown, bad: Bad): Constraints {
  const constraints: Constraints = { ...DEFAULT_CONSTRAINTS };
  if (!isObject(c)) bad('/constraints', 'must be an object');
  else {
    const range = (key: 'mw_range' | 'logp_range', [lo, hi]: readonly [number, number], unit: string) => {
      const v = c[key];
      if (v === undefined) return;
      const path = `/constraints/${key}`;
      if (!Array.isArray(v) || v.length !== 2 || !v.every((x) => typeof x === 'number' && Number.isFinite(x))) {
        bad(path, 'must be two numbers [low, high]');
        return;
      }
      const [a, b] = v as [number, number];
      if (a > b) bad(path, `low (${a}) must not exceed high (${b})`);
      else if (a < lo || b > hi) bad(path, `must lie within [${lo}, ${hi}]${unit}`);
      else if (key === 'mw_range' && b < BOUNDS.mw_upper_min)
        bad(path, `high (${b}) is below ${BOUNDS.mw_upper_min} Da: no drug-like molecule is that small`);
      else constraints[key] = [a, b];
    };
    range('mw_range', BOUNDS.mw, ' Da');
    range('logp_range', BOUNDS.logp, '');
    for (const key of ['hbd_max', 'hba_max'] as const) {
      const v = c[key];
      if (v === undefined) continue;
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 0)
        bad(`/constraints/${key}`, 'must be a non-negative integer');
      else if (v > BOUNDS.count_max) bad(`/constraints/${key}`, `must be at most ${BOUNDS.count_max}`);
      else constraints[key] = v;
    }
    for (const k of Object.keys(c))
      if (!['mw_range', 'logp_range', 'hbd_max', 'hba_max'].includes(k)) bad(`/constraints/${k}`, 'unknown constraint');
  }
  return constraints;
}

function readNumMolecules(n: unknown, bad: Bad): number {
  if (n === undefined) return DEFAULT_NUM_MOLECULES;
  if (typeof n !== 'number' || !Number.isInteger(n)) bad('/num_molecules', 'must be an integer');
  else if (n < BOUNDS.num_molecules[0] || n > BOUNDS.num_molecules[1])
    bad('/num_molecules', `must be between ${BOUNDS.num_molecules[0]} and ${BOUNDS.num_molecules[1]}`);
  else return n;
  return DEFAULT_NUM_MOLECULES;
}

/**
 * The reference ligands in RDKit's canonical form. Takes the problem list itself: a WebAssembly trap ends the
 * validation at once, with the problems found so far.
 */
async function readReferenceLigands(refs: unknown, problems: FieldProblem[]): Promise<string[]> {
  const bad: Bad = (path, message) => problems.push({ path, message });
  const references: string[] = [];
  if (refs === undefined) return references;
  if (!Array.isArray(refs)) bad('/reference_ligands', 'must be a list of SMILES');
  else if (refs.length > BOUNDS.reference_ligands_max)
    bad('/reference_ligands', `at most ${BOUNDS.reference_ligands_max} reference ligands`);
  else {
    const rd = await loadRDKit();
    for (let i = 0; i < refs.length; i++) {
      const s: unknown = refs[i];
      const path = `/reference_ligands/${i}`;
      const shown = JSON.stringify(typeof s === 'string' ? s.slice(0, 100) : s);
      // Bounded before RDKit sees it: an over-long chain traps or hangs RDKit's WebAssembly module.
      const bound = typeof s === 'string' ? smilesBoundsProblem(s) : undefined;
      if (bound) {
        bad(path, `SMILES ${bound} (${shown.slice(0, 40)}…)`);
        continue;
      }
      let mol: Mol | null = null;
      try {
        mol = typeof s === 'string' ? parseSmiles(rd, s) : null;
      } catch (e) {
        if (!isWasmTrap(e)) throw e;
        // The module trapped on this input and is unusable from now on: refuse the field and stop here. The
        // trap stays the cause, so that a host (the job service's thread) can see it and discard the instance.
        bad(path, `RDKit could not process this SMILES (its WebAssembly module trapped): ${shown.slice(0, 60)}`);
        throw new InvalidRequestError(problems, { cause: e });
      }
      if (!mol) {
        bad(path, `invalid SMILES ${shown}`);
        continue;
      }
      const canonical = mol.get_smiles();
      mol.delete();
      // The run parses the canonical form again: it must be within bounds too (RDKit may nest its branches
      // deeper than the caller did).
      const again = smilesBoundsProblem(canonical);
      if (again) bad(path, `SMILES in RDKit's canonical form ${again}`);
      else references.push(canonical);
    }
  }
  return references;
}

function readOptions(o: unknown, numMolecules: number, bad: Bad): Required<GenerationOptions> {
  const options: Required<GenerationOptions> = {
    seed: DEFAULT_SEED,
    max_evaluations: defaultMaxEvaluations(numMolecules),
    similarity_cap: DEFAULT_SIMILARITY_CAP,
    population_size: DEFAULT_POPULATION,
    allow_alerts: false,
    include_svg: true,
    docking: true,
    docking_exhaustiveness: DEFAULT_DOCKING_EXHAUSTIVENESS,
    docking_budget: defaultDockingBudget(numMolecules),
    covalent_design: false,
  };
  if (!isObject(o)) bad('/options', 'must be an object');
  else {
    const int = (
      key: 'seed' | 'max_evaluations' | 'population_size' | 'docking_exhaustiveness' | 'docking_budget',
      lo: number,
      hi: number,
    ) => {
      const v = o[key];
      if (v === undefined) return;
      if (typeof v !== 'number' || !Number.isInteger(v) || v < lo || v > hi)
        bad(`/options/${key}`, `must be an integer between ${lo} and ${hi}`);
      else options[key] = v;
    };
    int('seed', 0, 4294967295);
    int('max_evaluations', ...BOUNDS.max_evaluations);
    int('population_size', ...BOUNDS.population_size);
    int('docking_exhaustiveness', ...BOUNDS.docking_exhaustiveness);
    int('docking_budget', ...BOUNDS.docking_budget);
    if (o.similarity_cap !== undefined) {
      const v = o.similarity_cap;
      if (typeof v !== 'number' || !(v > 0 && v <= 1)) bad('/options/similarity_cap', 'must be a number in (0, 1]');
      else options.similarity_cap = v;
    }
    for (const key of ['allow_alerts', 'include_svg', 'docking', 'covalent_design'] as const) {
      if (o[key] === undefined) continue;
      if (typeof o[key] !== 'boolean') bad(`/options/${key}`, 'must be true or false');
      else options[key] = o[key] as boolean;
    }
    for (const k of Object.keys(o)) if (!(k in options)) bad(`/options/${k}`, 'unknown option');
  }
  return options;
}

/** A structure in the request is read now, so that a wrong chain, residue or pocket is this request's 400. */
function checkStructure(target: TargetRequest, uniprot: string, residues: string[]): void {
  try {
    analyseTarget(target.structure!, { uniprot, residues, target }, { id: 'request', source: 'request' });
  } catch (e) {
    if (e instanceof EvidentError && e.problems?.length) throw new InvalidRequestError([...e.problems]);
    throw e;
  }
}
