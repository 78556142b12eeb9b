// open(':memory:'): a base held in memory alone. Nothing may reach the disk (no file named ':memory:', no
// `:memory:.vectors/`, `.search/`, `.graph` or `.topology.json` beside it), whatever runs: a large batch (the
// writer thread's path), the search stage's catch-up, topology, a what-if, a close. Each test runs in a
// temporary working directory, where such names would land.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KbDB, open, type ClaimInput } from '../src/index.js';
import { SqliteClaimStore } from '../src/store/sqlite.js';
import { tempDir } from '@evident/testkit';

const claims = (n: number, tag: string): ClaimInput[] =>
  Array.from({ length: n }, (_, k) => ({
    subject: [`drug${k}`, 'drug'],
    predicate: ['inhibits', 'pharmacology'],
    object: [`kinase${k % 37}`, 'protein'],
    provenance: { source_type: 'literature', source_id: `${tag}:${k}` },
  }));

/** Runs `fn` with the working directory a new, empty folder; answers what the folder holds afterwards. */
async function inTempCwd(fn: (dir: string) => Promise<void>): Promise<string[]> {
  const d = tempDir('evident-memory-');
  const cwd = process.cwd();
  process.chdir(d.path);
  try {
    await fn(d.path);
    return readdirSync(d.path).sort();
  } finally {
    process.chdir(cwd);
    d.cleanup();
  }
}

test("open(':memory:') writes nothing to disk and each such base is its own", { timeout: 120_000 }, async () => {
  const left = await inTempCwd(async () => {
    const a = await open(':memory:');
    const b = await open(':memory:');
    // Above the writer thread's threshold, so the large-append path runs too.
    await a.ingestBatch(claims(3000, 'a'));
    await b.ingestBatch(claims(5, 'b'));
    await a.embeddingsReady();
    const { results } = await a.search('drug12 kinase12', { k: 3, mode: 'hybrid' });
    assert.ok(results.length > 0);
    const inB = (await b.search('drug12 kinase12', { k: 10, mode: 'lexical' })).results;
    assert.ok(inB.length > 0 && inB.every((r) => r.claim.provenance.source_id.startsWith('b:')), "a's are not b's");
    // The stages that keep results beside a base on a file: topology, structural embeddings, a what-if's.
    assert.ok((await a.computeTopology()).levels.length > 0);
    await a.generateStructuralEmbeddings();
    await (await a.whatIf({ add_claims: claims(3, 'w') })).computeTopology();
    await a.retract('a:7', 'test');
    assert.equal((await a.stats()).claim_count, 2999, 'one retracted');
    assert.equal((await b.stats()).claim_count, 5);
    await a.close();
    await b.close();
    // Reopened, it is a new, empty base.
    await using c = await open(':memory:');
    assert.equal((await c.stats()).claim_count, 0);
  });
  assert.deepEqual(left, [], 'nothing written to the working directory');
});

test("a file named ':memory:' in the working directory is neither read nor written", async () => {
  const left = await inTempCwd(async (dir) => {
    writeFileSync(join(dir, ':memory:'), 'not a base');
    const db = await open(':memory:');
    assert.equal((await db.stats()).claim_count, 0);
    await db.ingestBatch(claims(40, 's'));
    // Topology used to decide by the location's existence on disk: this file made it save `:memory:.topology.json`.
    await db.computeTopology();
    await db.close();
    assert.equal(readFileSync(join(dir, ':memory:'), 'utf8'), 'not a base');
  });
  assert.deepEqual(left, [':memory:']);
});

test("snapshot to ':memory:' is refused; a snapshot restored into ':memory:' is the base returned", async () => {
  const left = await inTempCwd(async (dir) => {
    const a = await open(':memory:');
    await a.ingestBatch(claims(25, 'a'));
    await assert.rejects(a.snapshot(':memory:'), (e: Error & { code?: string }) => e.code === 'invalid_value');
    // A memory base's snapshot to a real file works like any base's.
    const { path } = await a.snapshot(join(dir, 'copy.kb'));
    await a.close();
    const r = await KbDB.restore(path, ':memory:');
    assert.equal((await r.stats()).claim_count, 25, 'the restored claims, not a second, empty in-memory base');
    assert.equal((await r.query('drug3')).claim_count, 1);
    await r.close();
  });
  assert.ok(!left.some((f) => f.includes(':memory:')), `no ':memory:' file: ${left.join(', ')}`);
});

test("the store refuses ':memory:' read-only or without creating it: each open is a new, empty database", async () => {
  for (const options of [{ readonly: true }, { create: false }]) {
    await assert.rejects(SqliteClaimStore.open(':memory:', options), (e: Error & { code?: string }) => {
      assert.equal(e.code, 'not_found');
      return true;
    });
  }
});
