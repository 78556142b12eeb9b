// Vina's grid maps computed once per receptor and box, then loaded by every docking (`vina --maps`) instead of
// being recomputed on each call. Vina writes maps only for the atom types of the ligand it is given, so the maps
// are written with a synthetic ligand holding every type a prepared ligand can have: isolated atoms and small
// bonded pairs, because Vina's scoring types (XS) depend on bonding (carbon bonded to N/O is C_P, otherwise C_H;
// N or O bonded to a polar hydrogen is a donor). A docking loads only the maps its ligand needs.
// `--force_even_voxels` is required: the AutoDock map format needs an even number of grid intervals per axis, so
// the grid may be one 0.375 Å step larger than the box on some axes.
import { access, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DockingFailedError } from '../errors.js';
import type { Box } from '../limits.js';
import { runTool } from '../process/run.js';
import type { DockingTools } from '../tools/find.js';
import { boxArgs } from './options.js';

/** AutoDock ligand atom types the map set covers (Open Babel's PDBQT writer uses these for drug-like ligands). */
export const MAP_LIGAND_TYPES: ReadonlySet<string> = new Set([
  'C',
  'A',
  'N',
  'NA',
  'OA',
  'O',
  'S',
  'SA',
  'P',
  'F',
  'Cl',
  'Br',
  'I',
  'HD',
  'H',
]);

/** Vina's scoring types the synthetic ligand produces; each gets a `<prefix>.<type>.map` file. */
export const MAP_XS_TYPES = [
  'C_H',
  'C_P',
  'N_P',
  'N_D',
  'N_A',
  'N_DA',
  'O_P',
  'O_D',
  'O_A',
  'O_DA',
  'S_P',
  'P_P',
  'F_H',
  'Cl_H',
  'Br_H',
  'I_H',
] as const;

// One group per line: [AutoDock type, element][]; atoms in a group 1.0–1.3 Å apart (bonded), groups 3.5 Å apart.
const GROUPS: [string, string][][] = [
  [['C', 'C']], // C_H
  [
    ['C', 'C'],
    ['N', 'N'],
  ], // C_P, N_P
  [
    ['N', 'N'],
    ['HD', 'H'],
  ], // N_D
  // Deliberate likeness: a data table, one row per atom type.
  [['NA', 'N']], // N_A
  [
    ['NA', 'N'],
    ['HD', 'H'],
  ], // N_DA
  [['O', 'O']], // O_P
  [
    ['O', 'O'],
    ['HD', 'H'],
  ], // O_D
  [['OA', 'O']], // O_A
  [
    ['OA', 'O'],
    ['HD', 'H'],
  ], // O_DA
  [['S', 'S']], // S_P
  [['P', 'P']], // P_P
  [['F', 'F']], // F_H
  [['Cl', 'Cl']], // Cl_H
  [['Br', 'Br']], // Br_H
  [['I', 'I']], // I_H
];

/** The synthetic all-types ligand as a rigid PDBQT, its groups on a 4 × 2 × 2 lattice around the box centre. */
export function allTypesLigand(box: Box): string {
  const [cx, cy, cz] = box.center as number[];
  const lines = ['ROOT'];
  let serial = 0;
  GROUPS.forEach((group, g) => {
    const x0 = cx! + 3.5 * ((g % 4) - 1.5);
    const y0 = cy! + 3.5 * ((Math.floor(g / 4) % 2) - 0.5);
    const z0 = cz! + 3.5 * (Math.floor(g / 8) - 0.5);
    group.forEach(([type, element], k) => {
      serial++;
      const x = x0 + (type === 'HD' ? 1.0 : 1.3) * k;
      const name = element.padEnd(3).padStart(4).slice(0, 4);
      lines.push(
        `ATOM  ${String(serial).padStart(5)} ${name} LIG A   1    ${f83(x)}${f83(y0)}${f83(z0)}  1.00  0.00    +0.000 ${type.padEnd(2)}`,
      );
    });
  });
  lines.push('ENDROOT', 'TORSDOF 0', '');
  return lines.join('\n');
}

function f83(v: number): string {
  return v.toFixed(3).padStart(8);
}

/** Can a docking of this ligand use the session's maps? Only if every atom's AutoDock type is covered. */
export function mapsCover(ligandPdbqt: string): boolean {
  for (const line of ligandPdbqt.split('\n')) {
    if (!line.startsWith('ATOM  ') && !line.startsWith('HETATM')) continue;
    const type = line.slice(77).trim();
    if (!MAP_LIGAND_TYPES.has(type)) return false;
  }
  return true;
}

/**
 * Writes the map set for a receptor file and box into `dir` and returns the prefix for `vina --maps`.
 * Vina computes and writes the maps, then scores the synthetic ligand (`--score_only`); that score is
 * meaningless and may fail ("outside the grid box" for a small box), so the exit code is not the verdict:
 * every expected map file must exist.
 */
export async function writeMaps(
  dir: string,
  receptorPath: string,
  box: Box,
  tools: DockingTools,
  o: { signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<string> {
  await mkdir(dir, { recursive: true });
  const ligandPath = join(dir, 'all-types.pdbqt');
  await writeFile(ligandPath, allTypesLigand(box));
  const prefix = join(dir, 'grid');
  const step = 'grid maps (vina --write_maps)';
  const args = ['--receptor', receptorPath, '--ligand', ligandPath, ...boxArgs(box)];
  args.push('--write_maps', prefix, '--force_even_voxels', '--score_only', '--verbosity', '1');
  const r = await runTool(tools.vina.path, args, {
    step,
    cwd: dir,
    timeoutMs: o.timeoutMs ?? 600_000,
    okCodes: [0, 1],
    ...(o.signal ? { signal: o.signal } : {}),
  });
  for (const type of MAP_XS_TYPES) {
    try {
      await access(`${prefix}.${type}.map`);
    } catch {
      throw new DockingFailedError(`Vina did not write the ${type} map`, { step, stderr: r.stdout + r.stderr });
    }
  }
  return prefix;
}
