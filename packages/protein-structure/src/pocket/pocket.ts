// The docking box: axis-aligned, in Å, as AutoDock Vina takes it (center_x/y/z, size_x/y/z).
//
// Bounds: each edge within [10, 40] Å. Below 10 Å not even a fragment (~7 Å across) can turn inside the box,
// so a smaller request is a mistake, and auto-derived boxes are clamped up to 10. Above 40 Å the box is no
// longer a pocket but a face of the protein: Vina's search (tuned for boxes up to 30 × 30 × 30 Å; it warns
// beyond 27,000 Å³) gets slower and less reliable, and results stop meaning "binds this site". 40 rather than 30
// leaves room for elongated sites (a GPCR's orthosteric pocket with its extracellular vestibule).
import type { Problem } from '@evident/contract';
import { inputError, inputErrors, pathOf } from '../errors.js';
import { findHetGroup, type Ligand } from '../ligands/ligands.js';
import { isHeavy } from '../model/atoms.js';
import type { Atom, Structure, Vec3 } from '../model/types.js';
import { chainOf } from '../select/chain.js';

export const MIN_POCKET_EDGE = 10;
export const MAX_POCKET_EDGE = 40;
/** The margin added on every side of the atoms' bounding box, and its bounds. */
export const DEFAULT_MARGIN = 5;
export const MAX_MARGIN = 15;
/** PDB coordinates are written as %8.3f: |x| < 10,000 Å. */
const MAX_COORDINATE = 9999;

export interface Pocket {
  center: Vec3;
  size: Vec3;
  source: 'residues' | 'ligand' | 'request';
}

export interface PocketOptions {
  margin?: number;
  /** The request field the box is derived from, for errors. */
  field?: string;
}

export interface ResidueRef {
  chain: string;
  author_number: number;
  insertion_code: string;
}

/** The box around the residues' atoms plus `margin` on each side. */
export function pocketFromResidues(
  structure: Structure,
  residues: readonly ResidueRef[],
  options: PocketOptions = {},
): Pocket {
  const field = options.field ?? 'binding_site.residues';
  if (residues.length === 0) throw inputError(field, 'names no residue: a pocket needs at least one');
  const atoms: Atom[] = [];
  residues.forEach((ref, i) => {
    const chain = chainOf(structure, ref.chain);
    const r = chain.residues.find(
      (x) => x.author_number === ref.author_number && x.insertion_code === ref.insertion_code,
    );
    if (!r) throw inputError(field, `no residue ${ref.author_number}${ref.insertion_code} in chain ${chain.id}`, i);
    atoms.push(...r.atoms);
  });
  return boxAround(atoms, 'residues', options.margin, field);
}

/** The box around a co-crystallised ligand's atoms plus `margin` on each side. */
export function pocketFromLigand(structure: Structure, ligand: Ligand | string, options: PocketOptions = {}): Pocket {
  const field = options.field ?? 'ligand';
  return boxAround(findHetGroup(structure, ligand, field).atoms, 'ligand', options.margin, field);
}

function boxAround(atoms: readonly Atom[], source: Pocket['source'], margin = DEFAULT_MARGIN, field: string): Pocket {
  if (!Number.isFinite(margin) || margin < 0 || margin > MAX_MARGIN) {
    throw inputError('margin', `must be a number of Å in [0, ${MAX_MARGIN}], not ${margin}`);
  }
  if (atoms.length === 0) throw inputError(field, 'has no atoms to put a box around');
  const lo: Vec3 = [Infinity, Infinity, Infinity];
  const hi: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (const a of atoms) {
    const p = [a.x, a.y, a.z];
    for (let k = 0; k < 3; k++) {
      lo[k] = Math.min(lo[k]!, p[k]!);
      hi[k] = Math.max(hi[k]!, p[k]!);
    }
  }
  const center = [0, 1, 2].map((k) => (lo[k]! + hi[k]!) / 2) as Vec3;
  const raw = [0, 1, 2].map((k) => hi[k]! - lo[k]! + 2 * margin);
  if (raw.some((e) => e > MAX_POCKET_EDGE)) {
    const dims = raw.map((e) => e.toFixed(1)).join(' × ');
    throw inputError(
      field,
      `spans a box of ${dims} Å with a ${margin} Å margin; a pocket's edges are at most ${MAX_POCKET_EDGE} Å (name residues of one site)`,
    );
  }
  const size = raw.map((e) => Math.max(MIN_POCKET_EDGE, e)) as Vec3;
  return { center, size, source };
}

/** A requested box checked against the bounds: every problem at `<field>/center/<k>` or `<field>/size/<k>`. */
export function checkPocket(pocket: unknown, field = 'pocket'): Pocket {
  if (typeof pocket !== 'object' || pocket === null || Array.isArray(pocket)) {
    throw inputError(field, 'must be an object { center: [x, y, z], size: [x, y, z] } in Å');
  }
  const { center, size } = pocket as { center?: unknown; size?: unknown };
  const problems: Problem[] = [];
  const triple = (v: unknown, name: string, check: (x: number) => string | undefined) => {
    if (!Array.isArray(v) || v.length !== 3) {
      problems.push({ path: pathOf(field, name), message: 'must be three numbers [x, y, z] in Å' });
      return;
    }
    v.forEach((x, k) => {
      const message =
        typeof x !== 'number' || !Number.isFinite(x) ? `must be a finite number, not ${JSON.stringify(x)}` : check(x);
      if (message) problems.push({ path: pathOf(field, name, k), message });
    });
  };
  triple(center, 'center', (x) =>
    Math.abs(x) > MAX_COORDINATE ? `is ${x}: coordinates lie within ±${MAX_COORDINATE} Å` : undefined,
  );
  triple(size, 'size', (x) => {
    if (x < MIN_POCKET_EDGE) return `is ${x} Å: too small, a pocket's edges are at least ${MIN_POCKET_EDGE} Å`;
    if (x > MAX_POCKET_EDGE) return `is ${x} Å: too large, a pocket's edges are at most ${MAX_POCKET_EDGE} Å`;
    return undefined;
  });
  if (problems.length) throw inputErrors(problems);
  return { center: [...(center as number[])] as Vec3, size: [...(size as number[])] as Vec3, source: 'request' };
}

/** Whether a point lies inside the box (1e-6 Å of slack: a margin-0 box has atoms exactly on its faces). */
export function inPocket(pocket: Pick<Pocket, 'center' | 'size'>, p: { x: number; y: number; z: number }): boolean {
  const c = pocket.center;
  const s = pocket.size;
  const eps = 1e-6;
  return (
    Math.abs(p.x - c[0]) <= s[0] / 2 + eps &&
    Math.abs(p.y - c[1]) <= s[1] / 2 + eps &&
    Math.abs(p.z - c[2]) <= s[2] / 2 + eps
  );
}

/** Residues of the chain with a heavy atom inside the box (a requested box that holds none is likely wrong). */
export function pocketResidues(
  structure: Structure,
  chain: Parameters<typeof chainOf>[1],
  pocket: Pick<Pocket, 'center' | 'size'>,
) {
  return chainOf(structure, chain).residues.filter((r) =>
    r.atoms.some((a) => isHeavy(a.element) && inPocket(pocket, a)),
  );
}
