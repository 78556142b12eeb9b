// `npm run bench -w @evident/protein-structure`: contact search on the 2SRC kinase against an all-pairs
// comparison measured in the same run (both must find the same residues), and parse times of the fixtures.
// Parsing has no baseline here: no independent structure reader (gemmi, Biopython) is installed; the JSON says so.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ContactIndex, findHetGroup, type PointAtom, parseStructure, type Structure } from '@evident/protein-structure';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', 'test', 'fixtures');
const read = (name: string) => readFileSync(join(fixtures, name), 'utf8');

function median(fn: () => void, runs: number): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    fn();
    times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)]!;
}

/** Poses: ANP moved by up to ±3 Å and turned about its centroid, from a fixed seed. */
function poses(atoms: PointAtom[], count: number): PointAtom[][] {
  let seed = 12345;
  const rand = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const c = atoms.reduce((s, a) => [s[0]! + a.x, s[1]! + a.y, s[2]! + a.z], [0, 0, 0]).map((v) => v / atoms.length);
  return Array.from({ length: count }, () => {
    const t = [0, 1, 2].map(() => (rand() - 0.5) * 6);
    const angle = rand() * Math.PI;
    const [cos, sin] = [Math.cos(angle), Math.sin(angle)];
    return atoms.map((a) => {
      const x = a.x - c[0]!;
      const y = a.y - c[1]!;
      return {
        x: c[0]! + cos * x - sin * y + t[0]!,
        y: c[1]! + sin * x + cos * y + t[1]!,
        z: a.z + t[2]!,
        element: a.element,
      };
    });
  });
}

function allPairs(s: Structure, atoms: PointAtom[], cutoff: number): number[] {
  const out: number[] = [];
  for (const r of s.chains[0]!.residues) {
    let near = false;
    for (const a of r.atoms) {
      if (a.element === 'H') continue;
      for (const b of atoms) {
        if (b.element === 'H') continue;
        const dx = a.x - b.x;
        const dy = a.y - b.y;
        const dz = a.z - b.z;
        if (dx * dx + dy * dy + dz * dz <= cutoff * cutoff) {
          near = true;
          break;
        }
      }
      if (near) break;
    }
    if (near) out.push(r.author_number);
  }
  return out;
}

const src = parseStructure(read('2src.pdb'));
const set = poses(findHetGroup(src, 'ANP').atoms, 200);
const index = new ContactIndex(src, 'A');
for (const p of set) {
  const grid = index.contacts(p).map((c) => c.author_number);
  if (JSON.stringify(grid) !== JSON.stringify(allPairs(src, p, 4))) throw new Error('grid and all-pairs disagree');
}
const gridMs = median(() => {
  for (const p of set) index.contacts(p);
}, 5);
const buildMs = median(() => new ContactIndex(src, 'A'), 5);
const pairsMs = median(() => {
  for (const p of set) allPairs(src, p, 4);
}, 5);

const parse = Object.fromEntries(
  ['2src.pdb', '3pqr.pdb', '3PQR.cif'].map((f) => {
    const text = read(f);
    return [f, { chars: text.length, ms_median_of_5: +median(() => parseStructure(text), 5).toFixed(2) }];
  }),
);

console.log(
  JSON.stringify(
    {
      contacts: {
        receptor: '2SRC chain A',
        heavy_atoms_per_pose: set[0]!.filter((a) => a.element !== 'H').length,
        poses: set.length,
        cutoff_angstrom: 4,
        grid_ms_for_all_poses: +gridMs.toFixed(2),
        grid_build_ms: +buildMs.toFixed(2),
        baseline_all_pairs_ms_for_all_poses: +pairsMs.toFixed(2),
        speedup_vs_all_pairs: +(pairsMs / gridMs).toFixed(1),
        same_residues_as_baseline: true,
      },
      parse,
      parse_baseline: 'missing: no independent structure reader (gemmi, Biopython) is installed',
    },
    null,
    2,
  ),
);
