// Input bounds and the checks that enforce them. Each limit is generous for its purpose and small enough that
// no input can make a tool run for hours or fill the disk; a refused input names the field and the bound.
import type { Problem } from '@evident/contract';
import { DockingInputError } from './errors.js';

export const DOCKING_LIMITS = {
  /** Receptor PDB/PDBQT text: one chain of a large protein is ~1 MB; a whole ribosome would not fit. */
  receptorChars: 20_000_000,
  receptorAtoms: 100_000,
  /** A ligand PDBQT (one molecule, possibly a few MODELs of it). */
  ligandChars: 1_000_000,
  /** SMILES characters (also keeps RDKit's WebAssembly parser far from its recursion limit). */
  smilesChars: 500,
  /** Heavy atoms of a ligand: beyond ~100 Vina's search is not meaningful (peptides, macrocycles aside). */
  ligandHeavyAtoms: 120,
  /** Box edge in Å: below 6 no drug-like ligand fits; above 40 the grid (0.375 Å) passes a million points. */
  boxEdgeMin: 6,
  boxEdgeMax: 40,
  /** |coordinate| of the box centre, Å (PDB columns hold at most 4 integer digits). */
  coordinateMax: 9999,
  exhaustivenessMax: 64,
  numModesMax: 50,
  energyRangeMax: 20,
  cpuMax: 64,
  timeoutMsMax: 3_600_000,
} as const;

export interface Box {
  /** Centre, Å. */
  center: readonly [number, number, number] | readonly number[];
  /** Edge lengths along x, y, z, Å. */
  size: readonly [number, number, number] | readonly number[];
}

export class Problems {
  readonly list: Problem[] = [];
  add(path: string, message: string): void {
    this.list.push({ path, message });
  }
  throwIfAny(): void {
    if (this.list.length) throw new DockingInputError(this.list);
  }
}

export function checkBox(box: unknown, path: string, p: Problems): void {
  if (typeof box !== 'object' || box === null) {
    p.add(path, 'must be an object { center: [x, y, z], size: [x, y, z] }');
    return;
  }
  const b = box as Record<string, unknown>;
  checkTriple(b.center, `${path}/center`, p, (v) =>
    Math.abs(v) <= DOCKING_LIMITS.coordinateMax ? undefined : `must be within ±${DOCKING_LIMITS.coordinateMax} Å`,
  );
  checkTriple(b.size, `${path}/size`, p, (v) =>
    v >= DOCKING_LIMITS.boxEdgeMin && v <= DOCKING_LIMITS.boxEdgeMax
      ? undefined
      : `must be between ${DOCKING_LIMITS.boxEdgeMin} and ${DOCKING_LIMITS.boxEdgeMax} Å`,
  );
}

function checkTriple(v: unknown, path: string, p: Problems, check: (x: number) => string | undefined): void {
  if (!Array.isArray(v) || v.length !== 3) {
    p.add(path, 'must be an array of three numbers [x, y, z]');
    return;
  }
  for (const [i, x] of v.entries()) {
    const why = typeof x !== 'number' || !Number.isFinite(x) ? 'must be a finite number' : check(x);
    if (why) p.add(`${path}/${i}`, why);
  }
}

export function checkInt(v: unknown, path: string, min: number, max: number, p: Problems): void {
  if (v === undefined) return;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    p.add(path, `must be an integer from ${min} to ${max}`);
  }
}

export function checkNumber(v: unknown, path: string, min: number, max: number, p: Problems): void {
  if (v === undefined) return;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max) {
    p.add(path, `must be a number from ${min} to ${max}`);
  }
}

export function checkText(v: unknown, path: string, maxChars: number, p: Problems): v is string {
  if (typeof v !== 'string' || v.trim() === '') {
    p.add(path, 'must be a non-empty string');
    return false;
  }
  if (v.length > maxChars) {
    p.add(path, `is ${v.length} characters long; at most ${maxChars} are accepted`);
    return false;
  }
  // NUL and other control characters have no place in PDB/PDBQT/SMILES text and would confuse the tools.
  if (hasControlCharacters(v)) {
    p.add(path, 'contains control characters');
    return false;
  }
  return true;
}

/** ATOM/HETATM records in PDB or PDBQT text. */
export function countAtomRecords(text: string): number {
  let n = 0;
  for (const line of text.split('\n')) if (line.startsWith('ATOM  ') || line.startsWith('HETATM')) n++;
  return n;
}

/** Characters below U+0020 other than tab, line feed and carriage return. */
function hasControlCharacters(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return true;
  }
  return false;
}
