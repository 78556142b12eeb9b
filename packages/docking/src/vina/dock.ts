// Docking and score-only runs of the vina executable, each in its own scratch directory (removed afterwards).
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DockingFailedError } from '../errors.js';
import { type Box, checkText, countAtomRecords, DOCKING_LIMITS, Problems } from '../limits.js';
import { parseVinaOutput, type VinaPose } from '../pose/pdbqt.js';
import { runTool } from '../process/run.js';
import { withTempDir } from '../process/temp.js';
import { type DockingTools, findDockingTools } from '../tools/find.js';
import { checkBox, checkSearch, dockArgs, boxArgs, resolveSearch, type VinaSearchOptions } from './options.js';
import { parseScoreOnly, parseSeed, type ScoreOnlyResult } from './parse.js';

export interface DockResult {
  /** The best pose's affinity, kcal/mol (Vina's first result row, as this Vina printed it). */
  affinity: number;
  /**
   * The best pose's affinity with its own internal energy as the unbound reference (pose/affinity.ts): equal to
   * `vina --score_only` of that pose, and what Vina releases after 1.2.3 print. Scores compared across molecules
   * should be these: Debian's Vina 1.2.3 shifts `affinity` by a discarded pose's strain, differently per molecule.
   */
  affinity_corrected: number;
  /** Best first, as Vina ranks them. */
  poses: VinaPose[];
  /** The seed Vina reports it used. */
  seed: number;
  vina_version: string;
  /** Where the grid came from: maps a session wrote once (`vina --maps`), or computed by this call. */
  grid?: 'session_maps' | 'computed';
}

export interface DockOptions extends VinaSearchOptions {
  /** Receptor PDBQT (prepareReceptor's output, or any rigid receptor PDBQT). */
  receptor: string;
  /** Ligand PDBQT with a torsion tree (prepareLigand's output). */
  ligand: string;
  box: Box;
  /** Names the ligand in errors. */
  id?: string;
  signal?: AbortSignal;
  tools?: DockingTools;
}

export async function dock(options: DockOptions): Promise<DockResult> {
  const p = new Problems();
  checkReceptorPdbqt(options.receptor, '/receptor', p);
  checkLigandPdbqt(options.ligand, '/ligand', p);
  checkBox(options.box, '/box', p);
  checkSearch(options, p);
  p.throwIfAny();
  const tools = options.tools ?? (await findDockingTools());
  // Deliberate likeness: score (below) checks and writes its receptor alike; the tools run then differ.
  return withTempDir('dock', async (dir) => {
    const receptorPath = join(dir, 'receptor.pdbqt');
    await writeFile(receptorPath, options.receptor);
    return dockInDir(dir, receptorPath, options, tools);
  });
}

/**
 * One docking against a receptor file already on disk (a session writes its receptor once). Inputs are checked
 * by the caller. `dir` is a scratch directory owned by the caller.
 */
export async function dockInDir(
  dir: string,
  receptorPath: string,
  o: { ligand: string; box: Box; id?: string; signal?: AbortSignal; maps?: string } & VinaSearchOptions,
  tools: DockingTools,
): Promise<DockResult> {
  const search = resolveSearch(o);
  const ligandPath = join(dir, 'ligand.pdbqt');
  const outPath = join(dir, 'out.pdbqt');
  await writeFile(ligandPath, o.ligand);
  const step = 'docking (vina)';
  const who = o.id ? { ligand: o.id } : {};
  const r = await runTool(
    tools.vina.path,
    dockArgs(
      { receptor: receptorPath, ligand: ligandPath, out: outPath, ...(o.maps ? { maps: o.maps } : {}) },
      o.box,
      search,
    ),
    {
      step,
      cwd: dir,
      timeoutMs: search.timeoutMs,
      ...who,
      ...(o.signal ? { signal: o.signal } : {}),
    },
  );
  let poses: VinaPose[];
  try {
    poses = parseVinaOutput(await readFile(outPath, 'utf8'));
  } catch (e) {
    throw new DockingFailedError(`could not read Vina's output: ${(e as Error).message}`, {
      step,
      ...who,
      stderr: r.stderr || r.stdout,
      cause: e,
    });
  }
  const best = poses[0];
  if (!best) {
    // Vina writes no pose when none fits inside the box.
    throw new DockingFailedError('Vina found no pose inside the box', { step, ...who, stderr: r.stderr || r.stdout });
  }
  return {
    affinity: best.affinity,
    affinity_corrected: best.affinity_corrected,
    poses,
    seed: parseSeed(r.stdout) ?? search.seed,
    vina_version: tools.vina.version,
    grid: o.maps ? 'session_maps' : 'computed',
  };
}

export interface ScoreOnlyOptions {
  receptor: string;
  /** One pose (a multi-model file is refused). */
  ligand: string;
  /** The grid box; default: Vina's --autobox (the ligand's extent plus 4 Å a side). */
  box?: Box;
  id?: string;
  signal?: AbortSignal;
  timeoutMs?: number;
  tools?: DockingTools;
}

/** `vina --score_only`: the pose's energy as it stands, no search. */
export async function scoreOnly(options: ScoreOnlyOptions): Promise<ScoreOnlyResult> {
  const p = new Problems();
  checkReceptorPdbqt(options.receptor, '/receptor', p);
  checkLigandPdbqt(options.ligand, '/ligand', p);
  if (options.box !== undefined) checkBox(options.box, '/box', p);
  checkSearch({ ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }) }, p);
  p.throwIfAny();
  const tools = options.tools ?? (await findDockingTools());
  // Deliberate likeness: dock (above) checks and writes its receptor alike; the tools run then differ.
  return withTempDir('score', async (dir) => {
    const receptorPath = join(dir, 'receptor.pdbqt');
    await writeFile(receptorPath, options.receptor);
    return scoreInDir(dir, receptorPath, options, tools);
  });
}

export async function scoreInDir(
  dir: string,
  receptorPath: string,
  o: { ligand: string; box?: Box; id?: string; signal?: AbortSignal; timeoutMs?: number },
  tools: DockingTools,
): Promise<ScoreOnlyResult> {
  const ligandPath = join(dir, 'pose.pdbqt');
  await writeFile(ligandPath, o.ligand);
  const step = 'score only (vina)';
  const who = o.id ? { ligand: o.id } : {};
  const args = ['--receptor', receptorPath, '--ligand', ligandPath, '--score_only', '--verbosity', '1'];
  args.push(...(o.box ? boxArgs(o.box) : ['--autobox']));
  const r = await runTool(tools.vina.path, args, {
    step,
    cwd: dir,
    timeoutMs: o.timeoutMs ?? 120_000,
    ...who,
    ...(o.signal ? { signal: o.signal } : {}),
  });
  const score = parseScoreOnly(r.stdout);
  if (!score)
    throw new DockingFailedError("could not read Vina's score report", { step, ...who, stderr: r.stdout + r.stderr });
  return score;
}

export function checkReceptorPdbqt(text: unknown, path: string, p: Problems): void {
  if (!checkText(text, path, DOCKING_LIMITS.receptorChars, p)) return;
  const atoms = countAtomRecords(text);
  if (atoms === 0) p.add(path, 'has no ATOM/HETATM records');
  else if (atoms > DOCKING_LIMITS.receptorAtoms) {
    p.add(path, `has ${atoms} atoms; at most ${DOCKING_LIMITS.receptorAtoms} are accepted`);
  }
}

export function checkLigandPdbqt(text: unknown, path: string, p: Problems): void {
  if (!checkText(text, path, DOCKING_LIMITS.ligandChars, p)) return;
  if (/^MODEL/m.test(text)) {
    p.add(path, 'has several MODELs; pass one pose');
    return;
  }
  if (!/^ROOT/m.test(text) || !/^TORSDOF/m.test(text)) {
    p.add(path, 'is not a ligand PDBQT (no ROOT / TORSDOF torsion tree)');
    return;
  }
  const atoms = countAtomRecords(text);
  if (atoms === 0) p.add(path, 'has no ATOM/HETATM records');
  else if (atoms > DOCKING_LIMITS.ligandHeavyAtoms * 2) {
    p.add(path, `has ${atoms} atoms; at most ${DOCKING_LIMITS.ligandHeavyAtoms * 2} are accepted`);
  }
}
