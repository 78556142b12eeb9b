// Reading Vina's PDBQT output: models, the REMARK lines Vina 1.2 writes for each, and atom coordinates.
// Hand-written: PDBQT is PDB's fixed columns plus charge and AutoDock type, a few lines of slicing, and no npm
// library reads it.
import { bestPoseUnboundAffinities } from './affinity.js';

/** One docked pose as Vina reported it. Energies in kcal/mol. */
export interface VinaPose {
  /** Vina's affinity (REMARK VINA RESULT), the number its result table prints. */
  affinity: number;
  /**
   * The affinity with the best pose's internal energy as the unbound reference (pose/affinity.ts): what Vina releases
   * after 1.2.3 print, and for the best pose what `vina --score_only` gives it. Debian's Vina 1.2.3 prints numbers
   * shifted by the internal energy of a pose it discarded.
   */
  affinity_corrected: number;
  /** RMSD lower and upper bound to the best pose, Å. */
  rmsd_lb: number;
  rmsd_ub: number;
  /** REMARK INTER: ligand-receptor energy before Vina's torsion normalisation. */
  intermolecular: number;
  /** REMARK INTRA: the ligand's internal energy in this pose. */
  intramolecular: number;
  /** REMARK UNBOUND: the run's reference internal energy (Vina's, from its best pose). */
  unbound: number;
  /** This model's PDBQT (without MODEL/ENDMDL), ready for --score_only or poseToSdf. */
  pdbqt: string;
}

export interface PoseAtom {
  x: number;
  y: number;
  z: number;
  element: string;
}

/** The models of a multi-model PDBQT (MODEL … ENDMDL), or the whole text as one model when there is no MODEL. */
export function splitModels(pdbqt: string): string[] {
  const lines = pdbqt.split('\n');
  if (!lines.some((l) => l.startsWith('MODEL'))) return [pdbqt];
  const models: string[] = [];
  let current: string[] | undefined;
  for (const line of lines) {
    if (line.startsWith('MODEL')) current = [];
    else if (line.startsWith('ENDMDL')) {
      if (current) models.push(`${current.join('\n')}\n`);
      current = undefined;
    } else current?.push(line);
  }
  return models;
}

const remark = (model: string, label: string): number[] | undefined => {
  const re = new RegExp(`^REMARK ${label}:\\s+(.*)$`, 'm');
  const m = re.exec(model);
  if (!m) return undefined;
  const nums = m[1]!.trim().split(/\s+/).map(Number);
  return nums.every(Number.isFinite) ? nums : undefined;
};

/** The poses of Vina's output file, in its order (best first); a model without Vina's remarks is an error. */
export function parseVinaOutput(pdbqt: string): VinaPose[] {
  const poses = splitModels(pdbqt).map((model, i) => {
    const result = remark(model, 'VINA RESULT');
    const inter = remark(model, 'INTER');
    const intra = remark(model, 'INTRA');
    const unbound = remark(model, 'UNBOUND');
    if (!result || result.length < 3 || !inter || !intra || !unbound) {
      throw new Error(`model ${i + 1} lacks Vina 1.2's REMARK VINA RESULT / INTER / INTRA / UNBOUND lines`);
    }
    return {
      affinity: result[0]!,
      rmsd_lb: result[1]!,
      rmsd_ub: result[2]!,
      intermolecular: inter[0]!,
      intramolecular: intra[0]!,
      unbound: unbound[0]!,
      pdbqt: model,
    };
  });
  const corrected = bestPoseUnboundAffinities(poses);
  return poses.map((p, i) => ({ ...p, affinity_corrected: corrected[i]! }));
}

/** AutoDock 4 atom types that are not element symbols. */
const AD_TYPE_ELEMENT: Record<string, string> = {
  A: 'C',
  NA: 'N',
  NS: 'N',
  OA: 'O',
  OS: 'O',
  SA: 'S',
  HD: 'H',
  HS: 'H',
  G0: 'C',
  G1: 'C',
  G2: 'C',
  G3: 'C',
  CG0: 'C',
  CG1: 'C',
  CG2: 'C',
  CG3: 'C',
  W: 'O',
};

/** An AutoDock type as an element symbol ("OA" → "O", "Cl" → "Cl"). */
export function elementOfType(adType: string): string {
  const t = adType.trim();
  const mapped = AD_TYPE_ELEMENT[t] ?? AD_TYPE_ELEMENT[t.toUpperCase()];
  if (mapped) return mapped;
  return t.length > 1 ? t[0]!.toUpperCase() + t.slice(1).toLowerCase() : t.toUpperCase();
}

/**
 * Heavy-atom coordinates of a pose (the first model when there are several), for contact residues and boxes.
 * The element comes from the AutoDock type, the line's last field.
 */
export function poseAtoms(pdbqt: string): PoseAtom[] {
  const model = splitModels(pdbqt)[0] ?? '';
  const atoms: PoseAtom[] = [];
  for (const line of model.split('\n')) {
    if (!line.startsWith('ATOM  ') && !line.startsWith('HETATM')) continue;
    const x = Number(line.slice(30, 38));
    const y = Number(line.slice(38, 46));
    const z = Number(line.slice(46, 54));
    // Charge and type follow the coordinates; writers differ in padding, so take the last field.
    const type = line.slice(54).trim().split(/\s+/).at(-1) ?? '';
    if (![x, y, z].every(Number.isFinite) || !type) throw new Error(`unreadable PDBQT atom line: ${line}`);
    const element = elementOfType(type);
    if (element === 'H') continue;
    atoms.push({ x, y, z, element });
  }
  return atoms;
}
