// Every file a base writes is its owner's alone (issue #37 point 10): the base and its -wal/-shm, the folder made
// for it, the vectors folder beside it and what is in it, topology and embedding results, snapshots (a file, or a
// file and its manifest in a folder) and a restored base. The tree is walked and each mode checked, under the
// usual umask 022, with which anything created with a default mode comes out 0644 or 0755.
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { type ClaimInput, KbDB, open } from '../src/index.js';
import { claim, tempKb } from './helpers.js';

/** Every path under `root` (itself included) whose mode is not 0600 for a file or 0700 for a folder. */
function openToOthers(root: string): string[] {
  const bad: string[] = [];
  const walk = (p: string) => {
    const st = statSync(p);
    const mode = st.mode & 0o777;
    if (st.isDirectory()) {
      if (mode !== 0o700) bad.push(`${relative(root, p) || '.'}/ ${mode.toString(8)}`);
      for (const name of readdirSync(p)) walk(join(p, name));
    } else if (mode !== 0o600) bad.push(`${relative(root, p)} ${mode.toString(8)}`);
  };
  walk(root);
  return bad;
}

test('a base, its derived files, snapshots and a restore are 0600 files in 0700 folders', async (t) => {
  const umask = process.umask(0o022);
  const kb = tempKb();
  t.after(() => {
    process.umask(umask);
    kb.cleanup();
  });
  const base = join(kb.dir, 'data', 'nested', 'test.kb');
  const claims: ClaimInput[] = [];
  for (let c = 0; c < 4; c++)
    for (let i = 0; i < 6; i++)
      claims.push(claim(`g${c}-${i}`, 'gene', 'interacts_with', `g${c}-${(i + 1) % 6}`, 'gene', `paper-${c}-${i}`));

  const db = await open(base);
  try {
    await db.ingestBatch(claims);
    assert.ok((await db.search('g1-2 interacts', { k: 3 })).results.length > 0);
    await db.embeddingsReady();
    await db.computeTopology({ seed: 0 });
    await db.generateStructuralEmbeddings({ dim: 4, seed: 0 });
    const snaps = join(kb.dir, 'snapshots');
    mkdirSync(snaps, { mode: 0o700 });
    await db.snapshot(join(snaps, 'one.kb'));
    const intoDir = await db.snapshot(snaps);
    assert.ok(intoDir.manifest);
    // While the base is open: its -wal and -shm too.
    const open = readdirSync(join(kb.dir, 'data', 'nested'));
    assert.ok(open.includes('test.kb-wal') && open.includes('test.kb-shm'), open.join(', '));
    assert.deepEqual(openToOthers(kb.dir), []);
  } finally {
    await db.close();
  }
  const written = readdirSync(join(kb.dir, 'data', 'nested')).sort();
  for (const f of ['test.kb', 'test.kb.vectors', 'test.kb.topology.json', 'test.kb.embeddings-structural.json'])
    assert.ok(written.includes(f), `${f} in ${written.join(', ')}`);
  assert.ok(readdirSync(join(kb.dir, 'data', 'nested', 'test.kb.vectors')).includes('meta.json'));

  const restored = await KbDB.restore(join(kb.dir, 'snapshots', 'one.kb'), join(kb.dir, 'restored', 'r.kb'));
  await restored.close();
  assert.deepEqual(openToOthers(kb.dir), []);
});
