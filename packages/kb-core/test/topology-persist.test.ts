// Topology and structural embeddings kept beside a base (issue 41, point 3): after a reopen the reads answer from
// what was computed before (the same results, the same computed_at: nothing recomputed), and computeTopology after
// new claims updates from the kept partition. A kept file is served only when it is this log's: another base's
// file (same entities, claims of other ids), a file from before a restore to an older snapshot, a damaged file, an
// older format, and a half-written temporary left by a kill -9 are ignored, and the reads ask for a computation.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type ClaimInput, KbDB, KbTopologyNotComputedError } from '../src/index.js';
import { tempKb } from './helpers.js';
import { plantedClaims } from './topology-persist-graph.js';

const open = (path: string) => KbDB.open(path, { embedding: false });
// A few changed entities are more than 1% of 240: the share allowed is raised so that small batches update.
const settings = { seed: 0, levels: 2, incremental_max_fraction: 0.2 } as const;

/** Every topology read, as plain data, to compare before and after a reopen. */
async function reads(db: KbDB) {
  const topics = await db.topics();
  return {
    topics,
    density: await db.densityMap({ level: 0 }),
    bridges: await db.crossDomainBridges({ top_k: 5 }),
    first: await db.queryTopic(topics[0]!.topic_id),
    derived: (await db.stats()).derived.topology,
  };
}

async function assertNotKept(db: KbDB, what: string) {
  await assert.rejects(db.topics(), KbTopologyNotComputedError, `${what}: topics() served a file not of this log`);
  assert.equal((await db.stats()).derived.topology, null, what);
  const r = await db.computeTopology(settings);
  assert.equal(r.mode, 'full', what);
  assert.match(r.full_reason!, /no previous result/, what);
}

const extra = (n: number, source: string): ClaimInput[] =>
  Array.from({ length: n }, (_, k) => ({
    subject: [`n${(k * 37) % 240}`, 'gene'],
    predicate: ['batch_link', 'association'],
    object: [`n${(k * 37 + 100) % 240}`, 'gene'],
    provenance: { source_type: 'literature', source_id: `${source}-${k}` },
  }));

describe('topology kept beside the base', () => {
  it('is served after a reopen without recomputing, and updated from after new claims', async () => {
    const t = tempKb();
    try {
      let db = await open(t.path);
      await db.ingestBatch(plantedClaims('a'));
      const computed = await db.computeTopology(settings);
      assert.equal(computed.levels[0]!.topic_count, 12);
      await db.generateStructuralEmbeddings({ dim: 8, seed: 0 });
      const before = await reads(db);
      const similar = await db.similarEntities('n3', { k: 5 });
      await db.close();
      assert.equal(statSync(`${t.path}.topology.json`).mode & 0o777, 0o600);

      db = await open(t.path);
      assert.deepEqual(await reads(db), before, 'the same answers, computed_at included');
      assert.equal(before.derived?.computed_at, computed.computed_at);
      assert.deepEqual(await db.similarEntities('n3', { k: 5 }), similar);
      await db.ingestBatch(extra(2, 'late'));
      assert.equal((await db.stats()).derived.topology?.current, false);
      const next = await db.computeTopology(settings);
      assert.equal(next.mode, 'incremental', String(next.full_reason));
      assert.ok(next.changed_entities! >= 2 && next.changed_entities! <= 4, `${next.changed_entities}`);
      assert.equal((await db.stats()).derived.topology?.current, true);
      await db.close();
    } finally {
      t.cleanup();
    }
  });

  it("ignores another base's file and one from before a restore to an older snapshot", async () => {
    const t = tempKb();
    try {
      const a = join(t.dir, 'a.kb');
      let db = await open(a);
      await db.ingestBatch(plantedClaims('a'));
      const older = join(t.dir, 'older.kb.snapshot');
      await db.snapshot(older);
      await db.ingestBatch(extra(30, 'more'));
      await db.computeTopology(settings);
      const full = join(t.dir, 'full.kb.snapshot');
      await db.snapshot(full);
      await db.close();

      // The same entities and facts from claims of other sources: other claim ids.
      const b = join(t.dir, 'b.kb');
      db = await open(b);
      await db.ingestBatch(plantedClaims('b'));
      await db.ingestBatch(extra(30, 'more-b'));
      await db.close();
      copyFileSync(`${a}.topology.json`, `${b}.topology.json`);
      db = await open(b);
      await assertNotKept(db, 'another base');
      await db.close();

      // Restored from before the claims the file was computed over: first fewer claims, then as many others.
      const c = join(t.dir, 'c.kb');
      db = await KbDB.restore(older, c, { embedding: false });
      await db.close();
      copyFileSync(`${a}.topology.json`, `${c}.topology.json`);
      db = await open(c);
      await assert.rejects(db.topics(), KbTopologyNotComputedError, 'fewer claims than the file was computed over');
      await db.ingestBatch(extra(30, 'other'));
      await db.close();
      copyFileSync(`${a}.topology.json`, `${c}.topology.json`);
      db = await open(c);
      await assertNotKept(db, 'as many claims, other ones');
      await db.close();

      // The control: restored from a snapshot that has those claims, the copied file is served.
      const d = join(t.dir, 'd.kb');
      db = await KbDB.restore(full, d, { embedding: false });
      await db.close();
      copyFileSync(`${a}.topology.json`, `${d}.topology.json`);
      db = await open(d);
      assert.equal((await db.topics({ level: 0 })).length, 12);
      assert.equal((await db.computeTopology(settings)).mode, 'incremental');
      await db.close();
    } finally {
      t.cleanup();
    }
  });

  it('ignores a damaged, inconsistent or older-format file', async () => {
    const t = tempKb();
    try {
      let db = await open(t.path);
      await db.ingestBatch(plantedClaims('a'));
      await db.computeTopology(settings);
      await db.generateStructuralEmbeddings({ dim: 8, seed: 0 });
      await db.close();
      const file = `${t.path}.topology.json`;
      const good = readFileSync(file, 'utf8');
      const goodEmb = readFileSync(`${t.path}.embeddings-structural.json`, 'utf8');
      const edit = (f: (j: Record<string, any>) => void) => {
        const j = JSON.parse(good);
        f(j);
        return JSON.stringify(j);
      };
      const level0 = (j: Record<string, any>) =>
        new Int32Array(new Uint8Array(Buffer.from(j.memberships[0], 'base64')).buffer);
      const damaged: [string, string][] = [
        ['cut short', good.slice(0, good.length >> 1)],
        ['empty', ''],
        [
          'older format (no log mark)',
          edit((j) => {
            delete j.format;
            delete j.log;
          }),
        ],
        [
          'a topic out of range',
          edit((j) => {
            const m = level0(j);
            m[5] = j.result.levels[0].topic_count;
            j.memberships[0] = Buffer.from(m.buffer).toString('base64');
          }),
        ],
        [
          'a membership too short',
          edit((j) => {
            j.memberships[0] = Buffer.from(level0(j).buffer.slice(0, 40)).toString('base64');
          }),
        ],
        [
          'an entity the base does not have',
          edit((j) => {
            j.entity_ids[7] = 'gene:nobody';
          }),
        ],
        [
          'a topic missing from the list',
          edit((j) => {
            j.result.topics.pop();
          }),
        ],
        [
          'a log mark of other claims',
          edit((j) => {
            j.log.claims_hash = '0'.repeat(64);
          }),
        ],
        [
          "a basis that is not the mark's",
          edit((j) => {
            j.basis.claim_count -= 1;
          }),
        ],
      ];
      for (const [what, text] of damaged) {
        writeFileSync(file, text);
        db = await open(t.path);
        await assertNotKept(db, what);
        await db.close();
      }
      // Embeddings: vectors cut short are not served either, and the good file still is.
      writeFileSync(file, good);
      const emb = JSON.parse(goodEmb);
      emb.vectors = emb.vectors.slice(0, 40);
      writeFileSync(`${t.path}.embeddings-structural.json`, JSON.stringify(emb));
      db = await open(t.path);
      await assert.rejects(db.entityEmbedding('n3'), KbTopologyNotComputedError);
      assert.equal((await db.topics({ level: 0 })).length, 12, 'the good topology file is served');
      await db.close();
    } finally {
      t.cleanup();
    }
  });

  it('after kill -9: the topology computed before is served and updated from; a half-written file is ignored', {
    timeout: 120_000,
  }, async () => {
    const t = tempKb();
    try {
      const writer = fileURLToPath(new URL('./fixtures/topology-writer.ts', import.meta.url));
      const seen = await new Promise<{ computed: { computed_at: string; log_seq: number }; acked: number }>(
        (resolve, reject) => {
          const child = spawn(process.execPath, ['--conditions=evident-source', '--import', 'tsx', writer, t.path], {
            stdio: ['ignore', 'pipe', 'pipe'],
          });
          let buf = '';
          let err = '';
          let computed: { computed_at: string; log_seq: number } | undefined;
          let acked = -1;
          child.stderr.on('data', (d) => (err += d));
          child.stdout.on('data', (d: Buffer) => {
            buf += d.toString();
            for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
              const line = buf.slice(0, nl);
              buf = buf.slice(nl + 1);
              if (line.startsWith('computed ')) computed = JSON.parse(line.slice(9));
              else if (line.startsWith('acked ')) acked = Number(line.slice(6));
              if (acked >= 5) child.kill('SIGKILL');
            }
          });
          child.on('exit', (code, signal) => {
            if (signal !== 'SIGKILL' || !computed) reject(new Error(`writer ended (code ${code}, ${signal}): ${err}`));
            else resolve({ computed, acked });
          });
        },
      );
      // A kill during the file's write leaves at most its temporary half-written; the file itself is whole.
      writeFileSync(`${t.path}.topology.json.tmp`, '{"format":2,"log":');
      const db = await open(t.path);
      try {
        const derived = (await db.stats()).derived.topology;
        assert.equal(derived?.computed_at, seen.computed.computed_at, 'the kept result, not a recomputation');
        assert.equal(derived?.current, false, 'claims were acknowledged after it');
        assert.equal((await db.topics({ level: 0 })).length, 12);
        const next = await db.computeTopology(settings);
        assert.equal(next.mode, 'incremental', String(next.full_reason));
        assert.ok(next.changed_entities! > 0);
        assert.equal((await db.stats()).derived.topology?.current, true);
        assert.equal(next.levels[0]!.topic_count, 12);
      } finally {
        await db.close();
      }
      rmSync(`${t.path}.topology.json.tmp`, { force: true });
    } finally {
      t.cleanup();
    }
  });
});
