// Ligand preparation: SMILES → protonated at pH → 3D conformer → PDBQT with a torsion tree.
//   - parse and sanitize: RDKit (Open Babel accepts invalid valences and unclosed branches without complaint);
//   - protonation: Open Babel's pH model (-p); RDKit has none;
//   - 3D conformer: Open Babel --gen3d (RDKit's WebAssembly build, MinimalLib, has no 3D embedding: its only
//     coordinate generator is 2D depiction). The protonated molecule is built, so the added hydrogens get
//     force-field geometry. --gen3d is NOT repeatable: its builder seeds its own random numbers and
//     takes no seed (Open Babel issue #1934; every speed, 'fastest' included), so the same SMILES can dock a few
//     tenths of a kcal/mol apart between runs (README "Reproducibility");
//   - stereo check: RDKit reads stereo back from the 3D coordinates and it must match the SMILES;
//   - PDBQT: Open Babel (Gasteiger charges, AutoDock types, non-polar hydrogens merged, rotatable bonds as a
//     torsion tree). Vina's scoring ignores the charges; they are there because the format carries them.
import { DockingFailedError, InvalidSmilesError } from '../errors.js';
import { checkNumber, checkText, DOCKING_LIMITS, Problems } from '../limits.js';
import { runTool } from '../process/run.js';
import { type DockingTools, findDockingTools } from '../tools/find.js';
import { loadRDKit, parseMol, withMol } from './rdkit.js';
import { moleculesConverted } from './receptor.js';
import { stereoKept } from './stereo.js';

export interface PrepareLigandOptions {
  /** Names the ligand in errors (default: the SMILES). */
  id?: string;
  /** pH for Open Babel's protonation model (default 7.4). */
  ph?: number;
  tools?: DockingTools;
  signal?: AbortSignal;
  /** Per Open Babel call; default 120 s (the 3D build of a large flexible molecule takes seconds). */
  timeoutMs?: number;
  /** Called as each step ends (its name), so a profiler can read clocks between steps (npm run bench). */
  onStep?: (step: string) => void;
}

export interface PreparedLigand {
  /** RDKit's canonical SMILES of the input. */
  smiles: string;
  /** The molecule as protonated at the pH (Open Babel's SMILES). */
  protonated_smiles: string;
  heavy_atoms: number;
  /** Rotatable bonds in the torsion tree (PDBQT TORSDOF). */
  torsions: number;
  /** The 3D conformer with all hydrogens (SDF / MDL mol block). */
  sdf: string;
  pdbqt: string;
}

export async function prepareLigand(smiles: string, options: PrepareLigandOptions = {}): Promise<PreparedLigand> {
  const p = new Problems();
  checkText(smiles, '/smiles', DOCKING_LIMITS.smilesChars, p);
  checkNumber(options.ph, '/ph', 0, 14, p);
  p.throwIfAny();
  const input = smiles.trim();
  if (/\s/.test(input)) throw new InvalidSmilesError(input, '/smiles', 'contains whitespace');

  const rd = await loadRDKit();
  const mol = parseMol(rd, input);
  if (!mol) throw new InvalidSmilesError(input);
  const { canonical, heavy } = withMol(mol, (m) => ({ canonical: m.get_smiles(), heavy: m.get_num_atoms(true) }));
  if (canonical.includes('.')) {
    throw new InvalidSmilesError(input, '/smiles', 'has more than one fragment; dock one molecule (strip salts first)');
  }
  if (heavy > DOCKING_LIMITS.ligandHeavyAtoms) {
    throw new InvalidSmilesError(
      input,
      '/smiles',
      `has ${heavy} heavy atoms; at most ${DOCKING_LIMITS.ligandHeavyAtoms} are accepted`,
    );
  }
  const stepDone = options.onStep ?? (() => {});
  stepDone('ligand parse (RDKit)');

  const tools = options.tools ?? (await findDockingTools());
  const ph = options.ph ?? 7.4;
  const ligand = options.id ?? input;
  const base = {
    ligand,
    timeoutMs: options.timeoutMs ?? 120_000,
    ...(options.signal ? { signal: options.signal } : {}),
  };
  const obabel = async (step: string, args: string[], stdin: string) => {
    const r = await runTool(tools.obabel.path, args, { ...base, step, input: stdin });
    if (moleculesConverted(r.stderr) !== 1) {
      throw new DockingFailedError('Open Babel did not convert the molecule', { step, ligand, stderr: r.stderr });
    }
    stepDone(step);
    return r.stdout;
  };

  const protonated = firstToken(
    await obabel('ligand protonation (Open Babel -p)', ['-ismi', '-p', String(ph), '-osmi'], `${canonical}\n`),
  );
  const build = 'ligand 3D build (Open Babel --gen3d)';
  const sdf = await obabel(build, ['-ismi', '--gen3d', '-osdf'], `${protonated}\n`);
  if (!hasDepth(sdf)) throw new DockingFailedError('Open Babel produced no 3D coordinates', { step: build, ligand });
  const stereo = stereoKept(rd, protonated, sdf);
  if (!stereo.ok) throw new DockingFailedError(`the 3D structure is wrong: ${stereo.reason}`, { step: build, ligand });
  stepDone('ligand stereo check (RDKit)');

  const toPdbqt = 'ligand PDBQT (Open Babel)';
  const pdbqt = await obabel(toPdbqt, ['-isdf', '--partialcharge', 'gasteiger', '-opdbqt'], sdf);
  const tors = /^TORSDOF\s+(\d+)/m.exec(pdbqt);
  if (!/^ROOT/m.test(pdbqt) || !tors) {
    throw new DockingFailedError('Open Babel wrote a PDBQT without a torsion tree', { step: toPdbqt, ligand });
  }
  return {
    smiles: canonical,
    protonated_smiles: protonated,
    heavy_atoms: heavy,
    torsions: Number(tors[1]),
    sdf,
    pdbqt,
  };
}

function firstToken(text: string): string {
  return text.trim().split(/\s+/)[0] ?? '';
}

/** A mol block whose atoms do not all lie in one plane z = 0 (a 2D or 0D fallback would). */
function hasDepth(molBlock: string): boolean {
  const lines = molBlock.split('\n');
  const counts = lines[3] ?? '';
  const n = Number(counts.slice(0, 3));
  if (!Number.isInteger(n) || n <= 0) return false;
  for (let i = 4; i < 4 + n && i < lines.length; i++) {
    const z = Number(lines[i]!.slice(20, 30));
    if (Number.isFinite(z) && Math.abs(z) > 1e-3) return true;
  }
  return n === 1;
}
