// Which bases keep derived data beside a file (store/side-files.ts), and that a what-if view never does: its
// topology is of a hypothetical graph, and saved beside the base it replaced the base's own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { open, type ClaimInput } from '../src/index.js';
import { filesBeside, sideFile } from '../src/store/side-files.js';
import { graphSnapshotPath } from '../src/facade/graph-snapshot.js';
import { searchDir } from '../src/search/persist.js';
import { vectorsDir } from '../src/embeddings/persist.js';
import { tempDir } from '@evident/testkit';

test('only an SQLite base on a file has files beside it; no name is made from :memory: or a URL', () => {
  assert.equal(filesBeside({ backend: 'sqlite', location: '/data/kb.db' }), '/data/kb.db');
  assert.equal(filesBeside({ backend: 'sqlite', location: ':memory:' }), undefined);
  assert.equal(filesBeside({ backend: 'postgres', location: 'postgres://h/db' }), undefined);
  assert.equal(sideFile('/data/kb.db', '.graph'), '/data/kb.db.graph');
  for (const name of [graphSnapshotPath, searchDir, vectorsDir]) {
    assert.throws(() => name(':memory:'), /no file is kept beside :memory:/);
    assert.throws(
      () => name('postgres://u:secret@h/db'),
      (e: Error) => !e.message.includes('secret'),
    );
  }
});

test("a what-if view's topology stays in memory; the base's topology file is left as it was", async () => {
  const d = tempDir('evident-side-files-');
  try {
    const path = join(d.path, 'kb.db');
    const claim = (s: string, o: string, src: string): ClaimInput => ({
      subject: [s, 'drug'],
      predicate: ['inhibits', 'pharmacology'],
      object: [o, 'protein'],
      provenance: { source_type: 'literature', source_id: src },
    });
    const db = await open(path);
    await db.ingestBatch(Array.from({ length: 40 }, (_, k) => claim(`d${k % 10}`, `p${k % 7}`, `s${k}`)));
    const own = await db.computeTopology();
    const ownTopics = await db.topics();
    const file = `${path}.topology.json`;
    assert.ok(existsSync(file), 'the base keeps its topology beside it');
    const before = readFileSync(file, 'utf8');
    const hypothetical = Array.from({ length: 40 }, (_, k) => claim(`h${k}`, `q${k}`, `h${k}`));
    const view = await db.whatIf({ add_claims: hypothetical });
    const theirs = await view.computeTopology();
    assert.ok(theirs.entity_count > own.entity_count, 'the view computed over its own, larger graph');
    assert.equal(readFileSync(file, 'utf8'), before);
    await db.close();
    await using again = await open(path);
    assert.deepEqual(await again.topics(), ownTopics, "the base's own topology, read back from its file");
  } finally {
    d.cleanup();
  }
});
