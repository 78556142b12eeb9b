// From a raw wwPDB entry to docked poses: 2SRC (c-Src with AMP-PNP), chain A's protein atoms prepared with Open
// Babel, a Src inhibitor (PP1) prepared from SMILES and docked into the ATP site (the box around the
// co-crystallised ANP plus 5 Å). Then the session's plumbing: several ligands through the concurrency limit,
// abort, timeout, and a failing ligand reported with its id and Vina's own message.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import {
  DockingAbortedError,
  DockingFailedError,
  DockingSession,
  poseAtoms,
  poseToSdf,
  prepareLigand,
  prepareReceptor,
} from '../src/index.js';
import { chainAtoms, ligandBox, pdb2src, toolsOrSkip } from './helpers.js';

const { tools, skip } = await toolsOrSkip();

const PP1 = 'Cc1ccc(cc1)-c1nn(C(C)(C)C)c2ncnc(N)c12';
const pdb = pdb2src();
const box = ligandBox(pdb, 'ANP', 5);
let session: DockingSession;

/** Child processes of this test process running `name` (Linux /proc). */
function children(name: string): number[] {
  const out: number[] = [];
  for (const pid of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const m = /^\d+ \((.*)\) \S+ (\d+)/.exec(stat);
      if (m && m[1] === name && Number(m[2]) === process.pid) out.push(Number(pid));
    } catch {
      // The process ended while we looked.
    }
  }
  return out;
}

before(async () => {
  if (skip) return;
  session = await DockingSession.open({
    receptor: { pdb: chainAtoms(pdb, 'A') },
    box,
    exhaustiveness: 1,
    numModes: 3,
    seed: 7,
    concurrency: 2,
    tools,
  });
});
after(async () => {
  await session?.close();
});

test('receptor preparation: hydrogens at pH 7.4, AutoDock types, a rigid PDBQT', { skip }, async () => {
  const r = await prepareReceptor(chainAtoms(pdb, 'A'), { tools });
  const lines = r.pdbqt.split('\n').filter((l) => l.startsWith('ATOM'));
  const heavy = chainAtoms(pdb, 'A')
    .split('\n')
    .filter((l) => l.startsWith('ATOM') && l.slice(76, 78).trim() !== 'H').length;
  const types = lines.map((l) => l.trim().split(/\s+/).at(-1)!);
  const polarH = types.filter((t) => t === 'HD').length;
  assert.ok(polarH > 300, `polar hydrogens added: ${polarH}`);
  assert.equal(lines.length, heavy + polarH, 'every heavy atom kept, non-polar hydrogens merged');
  for (const t of ['OA', 'NA', 'A', 'C', 'N', 'S']) assert.ok(types.includes(t), `AutoDock type ${t} present`);
  assert.doesNotMatch(r.pdbqt, /^(ROOT|BRANCH|TORSDOF)/m, 'rigid: no torsion tree');
  // Every polar hydrogen has a Gasteiger charge (hydrogens added after the charges were computed would have 0).
  const charge = (l: string) => Number(l.slice(68, 76));
  const hd = lines.filter((l) => l.trim().endsWith('HD'));
  assert.deepEqual(
    hd.filter((l) => charge(l) === 0),
    [],
  );
  // Lysine NZ is protonated at pH 7.4 (NH3+): three hydrogens each, so the nitrogens' charges are positive.
  const nz = lines.filter((l) => l.slice(17, 20) === 'LYS' && l.slice(12, 16).trim() === 'NZ');
  assert.ok(nz.length > 10 && nz.every((l) => charge(l) > 0), 'lysines charged');
});

test('PP1 docks into the 2SRC ATP site: a finite negative affinity, poses inside the box', { skip }, async () => {
  const { ligand, docking } = await session.dockSmiles(PP1, { id: 'PP1' });
  assert.equal(ligand.heavy_atoms, 21);
  assert.ok(Number.isFinite(docking.affinity) && docking.affinity < 0, `affinity ${docking.affinity}`);
  assert.ok(docking.poses.length >= 1 && docking.poses.length <= 3);
  for (const pose of docking.poses) {
    const atoms = poseAtoms(pose.pdbqt);
    assert.equal(atoms.length, 21);
    for (const a of atoms) {
      [a.x, a.y, a.z].forEach((v, k) => {
        const half = box.size[k]! / 2;
        assert.ok(Math.abs(v - box.center[k]!) <= half + 1e-6, `atom at ${v} outside the box along axis ${k}`);
      });
    }
  }
  const sdf = await poseToSdf(docking.poses[0]!.pdbqt, { tools });
  const counts = sdf.split('\n')[3]!;
  const heavyInSdf = sdf
    .split('\n')
    .slice(4, 4 + Number(counts.slice(0, 3)))
    .filter((l) => l.slice(31, 34).trim() !== 'H').length;
  assert.equal(heavyInSdf, 21);
  // The same pose re-scored against the session's receptor: the intermolecular term Vina reported.
  const s = await session.scoreOnly(docking.poses[0]!.pdbqt, { id: 'PP1' });
  assert.ok(Math.abs(s.intermolecular - docking.poses[0]!.intermolecular) <= 0.1);
  // and the score a generator reports for it (the corrected affinity) is --score_only's
  assert.ok(Math.abs(s.affinity - docking.affinity_corrected) <= 0.1, `${docking.affinity_corrected} vs ${s.affinity}`);
});

test('a session docks several ligands through its limit; the same seed gives the same result', { skip }, async () => {
  const smiles = ['Nc1ncnc2[nH]cnc12', PP1, 'Nc1ncnc2[nH]cnc12'];
  const results = await Promise.all(smiles.map((s, i) => session.dockSmiles(s, { id: `lig${i}` })));
  assert.equal(results[0]!.docking.affinity, results[2]!.docking.affinity, 'adenine twice, same seed');
  assert.deepEqual(
    results[0]!.docking.poses.map((p) => p.pdbqt),
    results[2]!.docking.poses.map((p) => p.pdbqt),
  );
  assert.ok(results.every((r) => r.docking.affinity < 0));
  assert.equal(session.pending, 0);
  // docked again (a generator re-docks its finalists at a higher exhaustiveness): prepared once per session
  const again = await session.dockSmiles('Nc1ncnc2[nH]cnc12', { id: 'again' });
  assert.ok(
    again.ligand === results[0]!.ligand || again.ligand === results[2]!.ligand,
    'the prepared ligand is reused',
  );
});

test('abort kills the docking; a timeout is docking_failed; a failing ligand is named with Vina message', {
  skip,
}, async () => {
  const pp1 = await prepareLigand(PP1, { tools });
  const controller = new AbortController();
  const slow = session.dockLigand(pp1.pdbqt, { id: 'slow', exhaustiveness: 32, signal: controller.signal });
  // Abort once Vina is running (bounded wait), so the abort has a child to kill.
  for (let i = 0; i < 300 && children('vina').length === 0; i++) await new Promise((r) => setTimeout(r, 100));
  assert.equal(children('vina').length, 1, 'vina started');
  controller.abort();
  await assert.rejects(slow, (e: unknown) => e instanceof DockingAbortedError && e.code === 'aborted');
  // The abort rejects at once; the kill lands when the child exits. Wait (bounded) for no vina child to remain.
  for (let i = 0; i < 100 && session.pending > 0; i++) await new Promise((r) => setTimeout(r, 100));
  assert.deepEqual(children('vina'), [], 'the aborted vina was killed');

  await assert.rejects(
    session.dockLigand(pp1.pdbqt, { id: 'hasty', exhaustiveness: 32, timeoutMs: 300 }),
    (e: unknown) => {
      assert.ok(e instanceof DockingFailedError);
      assert.equal(e.code, 'docking_failed');
      assert.match(e.message, /timed out after 300 ms/);
      assert.match(e.message, /"hasty"/);
      return true;
    },
  );

  // A well-formed ligand PDBQT with an atom type Vina does not know: Vina refuses it and says why.
  const { ligand } = await session.dockSmiles('CCO', { id: 'ethanol' });
  const broken = ligand.pdbqt.replace(/ OA\s*$/m, ' Qx');
  await assert.rejects(session.dockLigand(broken, { id: 'broken' }), (e: unknown) => {
    assert.ok(e instanceof DockingFailedError);
    assert.match(e.message, /"broken"/);
    assert.match(e.message, /exited with code/);
    assert.match(e.message, /Qx/, 'Vina stderr is in the message');
    return true;
  });
});

test('closing the session removes its scratch directories; calls after close fail', { skip }, async () => {
  // Every finished call removed its own subdirectory: only the receptor is left.
  assert.equal(session.pending, 0);
  assert.deepEqual(readdirSync(session.dir), ['receptor.pdbqt']);
  await session.close();
  assert.equal(existsSync(session.dir), false, `${session.dir} removed`);
  await assert.rejects(session.dockSmiles(PP1), /closed/);
});
