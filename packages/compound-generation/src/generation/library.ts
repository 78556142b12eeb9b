// The drug-like fragment and scaffold library (data/fragments.smi) and random assembly of molecules from it:
// a core, then each open attachment point filled with a substituent, another core or linker (bounded depth),
// or a hydrogen. Joins are RDKit molzip operations on matching [*:n] dummies.
import { readDataText } from '../data.js';
import type { Mol, RDKit } from '../rdkit.js';
import type { Random } from './prng.js';

export interface BuildingBlock {
  smiles: string;
  name: string;
  attachments: number;
}

export class FragmentLibrary {
  readonly cores: BuildingBlock[];
  readonly substituents: BuildingBlock[];

  constructor(readonly blocks: BuildingBlock[]) {
    this.cores = blocks.filter((b) => b.attachments >= 2);
    this.substituents = blocks.filter((b) => b.attachments === 1);
  }

  static load(): FragmentLibrary {
    const blocks: BuildingBlock[] = [];
    for (const line of readDataText('fragments.smi').split('\n')) {
      const t = line.trim();
      if (!t || t.startsWith('#')) continue;
      const sp = t.indexOf(' ');
      const smiles = sp < 0 ? t : t.slice(0, sp);
      blocks.push({
        smiles,
        name: sp < 0 ? smiles : t.slice(sp + 1),
        attachments: (smiles.match(/\[\*:\d+\]/g) ?? []).length,
      });
    }
    return new FragmentLibrary(blocks);
  }

  /** A random assembly (SMILES, unsanitized join result) or null when a join failed. */
  assemble(rd: RDKit, rng: Random, maxBlocks = 4): string | null {
    let next = 0;
    const open: number[] = [];
    // Relabel a block's [*:k] dummies: the first becomes `join` (if given), the rest get fresh labels.
    const relabel = (b: BuildingBlock, join: number | null): string => {
      let first = true;
      return b.smiles.replace(/\[\*:(\d+)\]/g, () => {
        if (first && join !== null) {
          first = false;
          return `[*:${join}]`;
        }
        first = false;
        const label = ++next;
        open.push(label);
        return `[*:${label}]`;
      });
    };
    let smiles = relabel(rng.pick(this.cores), null);
    let blocks = 1;
    while (open.length > 0) {
      const label = open.splice(rng.int(open.length), 1)[0]!;
      let piece: string | null;
      if (blocks < maxBlocks && rng.chance(0.3)) piece = relabel(rng.pick(this.cores), label);
      else if (open.length > 0 && rng.chance(0.12))
        piece = null; // leave a hydrogen
      else piece = relabel(rng.pick(this.substituents), label);
      if (piece === null) {
        smiles = smiles.replace(`[*:${label}]`, '[H]');
        continue;
      }
      blocks++;
      const joined = zip(rd, smiles, piece);
      if (!joined) return null;
      smiles = joined;
    }
    return smiles;
  }
}

/** Joins two SMILES on their matching [*:n] dummies with RDKit's molzip; null if RDKit refuses. */
export function zip(rd: RDKit, a: string, b: string): string | null {
  let ma: Mol | null = null;
  let mb: Mol | null = null;
  let mz: Mol | null = null;
  try {
    ma = rd.get_mol(a, '{"sanitize":false}');
    mb = rd.get_mol(b, '{"sanitize":false}');
    if (!ma || !mb) return null;
    mz = rd.molzip(ma, mb, '{}');
    if (!mz) return null;
    return mz.get_smiles();
  } catch {
    return null;
  } finally {
    ma?.delete();
    mb?.delete();
    mz?.delete();
  }
}
