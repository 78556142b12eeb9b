// Grid maps written once per session (`reuseMaps`, opt-in): the synthetic all-types ligand makes Vina write a map
// for every scoring type, those maps are byte-identical to the ones Vina writes for a real ligand's own types,
// dockings load them, they are written once, live in the session's directory and go with it. (What maps do to
// the scores is measured by `npm run bench`, not asserted here: see README "Cost".)
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { DockingSession, prepareLigand, prepareReceptor } from '../src/index.js';
import { allTypesLigand, MAP_LIGAND_TYPES, MAP_XS_TYPES, mapsCover } from '../src/vina/maps.js';
import { boxArgs, dockArgs, resolveSearch } from '../src/vina/options.js';
import { chainAtoms, ligandBox, pdb2src, toolsOrSkip } from './helpers.js';

const { tools, skip } = await toolsOrSkip();
const PP1 = 'Cc1ccc(cc1)-c1nn(C(C)(C)C)c2ncnc(N)c12';
const box = ligandBox(pdb2src(), 'ANP', 5);
const adTypes = (pdbqt: string) =>
  pdbqt
    .split('\n')
    .filter((l) => l.startsWith('ATOM  ') || l.startsWith('HETATM'))
    .map((l) => l.slice(77).trim());

// Non-polar H has no map (Vina ignores it); aromatic A types like C (C_H / C_P) and SA like S (S_P), so their
// maps come from C and S atoms.
test('the synthetic ligand carries every covered AutoDock type but H, A and SA', () => {
  const types = new Set(adTypes(allTypesLigand(box)));
  for (const t of MAP_LIGAND_TYPES) if (!['H', 'A', 'SA'].includes(t)) assert.ok(types.has(t), `type ${t} missing`);
});

test('mapsCover refuses a ligand with a type the maps lack', () => {
  const ligand =
    'ROOT\nATOM      1  B   LIG A   1       0.000   0.000   0.000  1.00  0.00    +0.000 B \nENDROOT\nTORSDOF 0\n';
  assert.equal(mapsCover(ligand), false);
  assert.equal(mapsCover(ligand.replace(/ B \n/, ' C \n')), true);
});

test('with maps, Vina gets --maps and neither the receptor nor the box', () => {
  const args = dockArgs(
    { receptor: 'r.pdbqt', ligand: 'l.pdbqt', out: 'o.pdbqt', maps: 'm/grid' },
    box,
    resolveSearch(),
  );
  assert.deepEqual(args.slice(0, 2), ['--maps', 'm/grid']);
  assert.ok(!args.includes('--receptor') && !args.includes('--center_x'));
  const plain = dockArgs({ receptor: 'r.pdbqt', ligand: 'l.pdbqt', out: 'o.pdbqt' }, box, resolveSearch());
  assert.ok(plain.includes('--receptor') && plain.includes('--center_x') && !plain.includes('--maps'));
});

// Unit tests above need no tools; these dock, in one session whose preparation is shared.
describe('session grid maps', { skip }, () => {
  let session: DockingSession;
  let ligand: { pdbqt: string };
  before(async () => {
    if (skip) return;
    const receptor = await prepareReceptor(chainAtoms(pdb2src(), 'A'), { tools: tools! });
    session = await DockingSession.open({ receptor: { pdbqt: receptor.pdbqt }, box, reuseMaps: true, cpu: 1, tools });
    // The machine running the suite may be loaded: Open Babel's 3D build of PP1 alone is ~9 CPU s.
    ligand = await prepareLigand(PP1, { tools: tools!, timeoutMs: 600_000 });
  });
  after(async () => {
    await session?.close();
  });

  test('a session docks with maps it wrote once into its own directory', async () => {
    const first = await session.dockLigand(ligand.pdbqt, { id: 'PP1', exhaustiveness: 1 });
    assert.equal(first.grid, 'session_maps');
    const prefix = join(session.dir, 'maps', 'grid');
    for (const t of MAP_XS_TYPES) assert.ok(existsSync(`${prefix}.${t}.map`), `no ${t} map`);
    const written = statSync(`${prefix}.C_H.map`).mtimeMs;

    const second = await session.dockLigand(ligand.pdbqt, { id: 'PP1 again', exhaustiveness: 1 });
    assert.equal(second.grid, 'session_maps');
    assert.equal(statSync(`${prefix}.C_H.map`).mtimeMs, written, 'the maps were written again');
    // Same seed, same maps: the same result.
    assert.equal(second.affinity, first.affinity);

    const dir = join(session.dir, 'check');
    await mkdir(dir);
    // The session's maps equal those Vina writes for PP1's own types on the fly.
    await writeFile(join(dir, 'pp1.pdbqt'), ligand.pdbqt);
    const args = ['--receptor', join(session.dir, 'receptor.pdbqt'), '--ligand', 'pp1.pdbqt', ...boxArgs(box)];
    args.push('--write_maps', 'own', '--force_even_voxels', '--score_only');
    await promisify(execFile)(tools!.vina.path, args, { cwd: dir }).catch(() => {}); // PP1 is outside the box
    let compared = 0;
    for (const t of MAP_XS_TYPES) {
      const own = join(dir, `own.${t}.map`);
      if (!existsSync(own)) continue;
      compared++;
      assert.ok(readFileSync(own).equals(readFileSync(`${prefix}.${t}.map`)), `${t} map differs`);
    }
    assert.ok(compared >= 3, `only ${compared} maps to compare`);
  });

  test('a session without reuseMaps computes the grid per call and writes no maps', async () => {
    const receptor = { pdbqt: readFileSync(join(session.dir, 'receptor.pdbqt'), 'utf8') };
    const plain = await DockingSession.open({ receptor, box, cpu: 1, tools });
    try {
      const r = await plain.dockLigand(ligand.pdbqt, { exhaustiveness: 1 });
      assert.equal(r.grid, 'computed');
      assert.ok(!existsSync(join(plain.dir, 'maps')));
    } finally {
      await plain.close();
    }
  });

  test('closing the session removes its maps', async () => {
    const dir = session.dir;
    assert.ok(existsSync(join(dir, 'maps')));
    await session.close();
    assert.ok(!existsSync(dir));
  });
});
