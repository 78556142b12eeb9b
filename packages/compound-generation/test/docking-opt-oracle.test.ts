// The docking benchmark's oracle cache (bench/docking-opt-oracle.ts) and its agreement figures
// (bench/docking-opt-stats.ts), with a stand-in session that returns set scores (no Vina, no Open Babel).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DockingSession, DockingTools } from '@evident/docking';
import { DockingCache, slots, type Pocket } from '../bench/docking-opt-oracle.js';
import { agreement } from '../bench/docking-opt-stats.js';

const tools = {
  vina: { path: 'vina', version: '1.2.3' },
  obabel: { path: 'obabel', version: '3.1.1' },
} as DockingTools;

function pocket(score: number, docked: string[]): Pocket {
  const session = {
    dockLigand: async (pdbqt: string) => {
      docked.push(pdbqt);
      return { affinity_corrected: score };
    },
  } as unknown as DockingSession;
  return { name: '2src', session, box: { center: [0, 0, 0], size: [20, 20, 20] } };
}

test('a cached score is served only to the grid mode that computed it; entries without a mode are computed', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'oracle-cache-'));
  try {
    const file = join(dir, 'cache.jsonl');
    const ligands = join(dir, 'ligands.jsonl');
    writeFileSync(
      file,
      `${JSON.stringify({ k: 'score', pocket: '2src', exhaustiveness: 1, smiles: 'CCO', score: -4 })}\n`,
    );
    writeFileSync(ligands, `${JSON.stringify({ k: 'ligand', smiles: 'CCO', pdbqt: 'LIGAND' })}\n`);
    const docked: string[] = [];
    const computed = new DockingCache(tools, file, slots(1), 'computed', ligands);
    assert.equal(await computed.score(pocket(-9, docked), 'CCO', 1), -4);
    assert.deepEqual(docked, []);
    const maps = new DockingCache(tools, file, slots(1), 'maps', ligands);
    assert.equal(await maps.score(pocket(-9, docked), 'CCO', 1), -9);
    assert.deepEqual(docked, ['LIGAND']);
    // The new score went to the score file with its mode, the ligand file kept only ligands.
    const last = JSON.parse(readFileSync(file, 'utf8').trim().split('\n').at(-1)!);
    assert.equal(last.grid, 'maps');
    assert.equal(readFileSync(ligands, 'utf8').trim().split('\n').length, 1);
    assert.equal(
      await new DockingCache(tools, file, slots(1), 'maps', ligands).score(pocket(-1, docked), 'CCO', 1),
      -9,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('agreement: Spearman on ranks, signed and absolute differences', () => {
  const same = agreement([
    [-5, -6],
    [-7, -8],
    [-9, -10],
  ]);
  assert.equal(same.spearman, 1);
  assert.equal(same.mean_delta, -1);
  assert.equal(same.max_abs_delta, 1);
  assert.equal(same.sd_delta, 0); // a constant offset reorders nothing
  const reversed = agreement([
    [-5, -9],
    [-7, -7],
    [-9, -5],
  ]);
  assert.equal(reversed.spearman, -1);
  assert.equal(reversed.mean_delta, 0);
  assert.equal(reversed.mean_abs_delta, 2.667);
  assert.equal(agreement([[-5, -6]]).spearman, null);
});
