// Residues a pose touches: any heavy atom of the chain within `cutoff` of any heavy atom of the pose. The
// chain's heavy atoms are hashed into a grid of cutoff-sized cells once, so each pose atom looks at 27 cells
// instead of every protein atom (a kinase domain has ~2,500 heavy atoms; a docked molecule ~30–50).
import { inputError } from '../errors.js';
import { isHeavy } from '../model/atoms.js';
import type { Chain, PointAtom, Residue, NamedResidue, Structure } from '../model/types.js';
import { chainOf } from '../select/chain.js';
import { chainNumbering, residueLabel, uniprotNumber } from '../select/numbering.js';

export const DEFAULT_CONTACT_CUTOFF = 4.0;
const MAX_CUTOFF = 10;

export interface ResidueContact extends NamedResidue {
  /** UniProt numbering where mapped (`M343`), author numbering with insertion code otherwise. */
  label: string;
  /** The closest heavy-atom distance (Å). */
  distance: number;
}

export interface ContactOptions {
  cutoff?: number;
  /** Accession for the labels' UniProt numbering (default: every UniProt segment of the chain). */
  uniprot?: string;
}

/** A chain's heavy atoms in a grid, for many poses against one receptor. */
export class ContactIndex {
  private readonly cells = new Map<string, number[]>();
  private readonly xyz: Float64Array;
  private readonly residueOf: Int32Array;
  private readonly residues: Residue[];
  private readonly labels: ResidueContact[];
  readonly cutoff: number;

  constructor(structure: Structure, chain: Chain | string, options: ContactOptions = {}) {
    const cutoff = options.cutoff ?? DEFAULT_CONTACT_CUTOFF;
    if (!Number.isFinite(cutoff) || cutoff <= 0 || cutoff > MAX_CUTOFF) {
      throw inputError('cutoff', `must be a distance in Å in (0, ${MAX_CUTOFF}], not ${cutoff}`);
    }
    this.cutoff = cutoff;
    const c = chainOf(structure, chain);
    const numbering = chainNumbering(structure, c, options.uniprot);
    this.residues = c.residues;
    this.labels = c.residues.map((r) => ({
      label: residueLabel(numbering, r),
      chain: c.id,
      author_number: r.author_number,
      insertion_code: r.insertion_code,
      uniprot_number: uniprotNumber(numbering, r),
      name: r.name,
      distance: Infinity,
    }));
    const coords: number[] = [];
    const owners: number[] = [];
    c.residues.forEach((r, ri) => {
      for (const a of r.atoms) {
        if (!isHeavy(a.element)) continue;
        const i = owners.length;
        coords.push(a.x, a.y, a.z);
        owners.push(ri);
        const key = this.key(a.x, a.y, a.z, 0, 0, 0);
        const cell = this.cells.get(key);
        if (cell) cell.push(i);
        else this.cells.set(key, [i]);
      }
    });
    this.xyz = Float64Array.from(coords);
    this.residueOf = Int32Array.from(owners);
  }

  private key(x: number, y: number, z: number, dx: number, dy: number, dz: number): string {
    const s = this.cutoff;
    return `${Math.floor(x / s) + dx},${Math.floor(y / s) + dy},${Math.floor(z / s) + dz}`;
  }

  /** Residues within the cutoff of any heavy atom of `atoms`, in chain order. */
  contacts(atoms: readonly PointAtom[], field = 'atoms'): ResidueContact[] {
    const best = new Float64Array(this.residues.length).fill(Infinity);
    const c2 = this.cutoff * this.cutoff;
    atoms.forEach((p, i) => {
      if (![p.x, p.y, p.z].every(Number.isFinite)) throw inputError(field, 'has a non-finite coordinate', i);
      if (!isHeavy(normalize(p.element))) return;
      for (let dx = -1; dx <= 1; dx++)
        for (let dy = -1; dy <= 1; dy++)
          for (let dz = -1; dz <= 1; dz++) {
            const cell = this.cells.get(this.key(p.x, p.y, p.z, dx, dy, dz));
            if (!cell) continue;
            for (const j of cell) {
              const ex = this.xyz[3 * j]! - p.x;
              const ey = this.xyz[3 * j + 1]! - p.y;
              const ez = this.xyz[3 * j + 2]! - p.z;
              const d2 = ex * ex + ey * ey + ez * ez;
              const r = this.residueOf[j]!;
              if (d2 <= c2 && d2 < best[r]!) best[r] = d2;
            }
          }
    });
    const out: ResidueContact[] = [];
    best.forEach((d2, r) => {
      if (d2 !== Infinity) out.push({ ...this.labels[r]!, distance: Math.sqrt(d2) });
    });
    return out;
  }
}

const normalize = (e: string) => (e.length > 1 ? e[0]!.toUpperCase() + e.slice(1).toLowerCase() : e.toUpperCase());

/** Labels of the chain's residues within `cutoff` (default 4 Å) of the given heavy atoms, in sequence order. */
export function contactResidues(
  structure: Structure,
  chain: Chain | string,
  atoms: readonly PointAtom[],
  options: ContactOptions = {},
): string[] {
  return new ContactIndex(structure, chain, options).contacts(atoms).map((c) => c.label);
}
