// The replica thread (src/replica): Cypher and what-ifs on it answer what the caller's thread answers, as of every
// write acknowledged before them; a call past its time budget or its thread's heap cap is stopped (the thread with
// it) and answered in a 4xx, and the next call gets a fresh replica; the queue is bounded (429 busy); an idle
// thread ends.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KbBusyError, type KbDB, open, type RawQueryResult } from '../src/index.js';
import { claim, sleep, tempKb } from './helpers.js';

const QUERIES = [
  'MATCH (n) RETURN n.id AS id, n.claim_count AS c ORDER BY id',
  'MATCH (a)-[r]->(b) RETURN a.id, type(r), b.id, r.confidence, r.source_count ORDER BY a.id, b.id',
  'MATCH (n:gene) RETURN n.type AS t, count(*) AS c ORDER BY t',
  "MATCH (n {id: 'gene:a'})-[*1..3]-(m) RETURN count(DISTINCT m) AS reach",
  'UNWIND range(1, 5) AS x RETURN x * 2 AS y',
];

const rows = (r: RawQueryResult) => ({ columns: r.columns, rows: r.rows });

async function sameBothWays(db: KbDB, at: string): Promise<void> {
  for (const q of QUERIES) {
    const here = await db.rawQuery(q);
    const there = await db.rawQuery(q, {}, { off_thread: true });
    assert.deepEqual(rows(there), rows(here), `${at}: ${q}`);
  }
}

/** The replica thread of a base, as the tests read it (private). */
const replicaOf = (db: KbDB) =>
  (db as unknown as { offThread: { replica?: { threadRunning: boolean } } }).offThread.replica;

test('off the thread, rawQuery answers what it answers on the caller thread, as of every acknowledged write', async () => {
  const t = tempKb();
  try {
    await using db = await open(t.path, { embedding: false });
    await db.ingestBatch([
      claim('A', 'gene', 'binds', 'B', 'gene', 's1'),
      claim('B', 'gene', 'binds', 'C', 'gene', 's2'),
      claim('A', 'gene', 'treats', 'D', 'disease', 's3'),
    ]);
    await sameBothWays(db, 'first');
    // Each write is seen by the next query: the replica is fed the log up to the base's position.
    await db.ingest(['C', 'gene'], ['binds', 'association'], ['E', 'gene'], {
      source_type: 'literature',
      source_id: 's4',
    });
    await db.ingestBatch([
      claim('A', 'gene', 'binds', 'B', 'gene', 's5'),
      claim('E', 'gene', 'binds', 'F', 'gene', 's5'),
    ]);
    await sameBothWays(db, 'after writes');
    await db.retract('s1', 'withdrawn');
    await db.registerPredicate('binds', { subject_types: ['gene'], object_types: ['gene'] });
    await sameBothWays(db, 'after a retraction');
    const json = await db.rawQueryJson("MATCH (n {id: 'gene:a'}) RETURN n", {}, {});
    assert.deepEqual(JSON.parse(json).rows, (await db.rawQuery("MATCH (n {id: 'gene:a'}) RETURN n")).rows);

    // Refusals cross the thread with their code, status and field.
    for (const [q, code, status] of [
      ['MATCH (n RETURN n', 'cypher_syntax_error', 400],
      ["CREATE (n:gene {name: 'x'})", 'cypher_read_only', 400],
    ] as const) {
      await assert.rejects(db.rawQuery(q, {}, { off_thread: true }), (e: { code: string; status: number }) => {
        assert.match(e.code, new RegExp(`^${code}`));
        assert.equal(e.status, status);
        return true;
      });
    }
    await assert.rejects(db.rawQuery('RETURN 1', {}, { off_thread: true, max_rows: 0 }), /max_rows/);
    const collect5 = 'UNWIND range(1, 5) AS x RETURN collect(x) AS xs';
    await assert.rejects(db.rawQuery(collect5, {}, { off_thread: true, max_list_size: 4 }), {
      code: 'cypher_list_too_large',
    });
    assert.deepEqual(
      (await db.rawQuery(collect5, {}, { off_thread: true, max_list_size: 5 })).rows[0]![0],
      [1, 2, 3, 4, 5],
    );
  } finally {
    t.cleanup();
  }
});

test("a second handle's off-thread query answers as of that handle's position, not the log's head", async () => {
  const t = tempKb();
  try {
    await using a = await open(t.path, { embedding: false });
    await a.ingest(['A', 'gene'], ['binds', 'association'], ['B', 'gene'], {
      source_type: 'literature',
      source_id: 's1',
    });
    await using b = await open(t.path, { embedding: false });
    await a.ingestBatch([
      claim('C', 'gene', 'binds', 'D', 'gene', 's2'),
      claim('E', 'gene', 'binds', 'F', 'gene', 's2'),
    ]);
    // b has not read a's batch (a SQLite base is read again on refresh or a write), and neither does its replica.
    const q = 'MATCH (n) RETURN count(n) AS n';
    assert.deepEqual((await b.rawQuery(q, {}, { off_thread: true })).rows, [[2]]);
    await b.refresh();
    assert.deepEqual((await b.rawQuery(q, {}, { off_thread: true })).rows, [[6]]);
  } finally {
    t.cleanup();
  }
});

test('a query past its heap cap stops its thread (413 cypher_memory_limit) and the next query gets a fresh replica', async () => {
  const t = tempKb();
  try {
    await using db = await open(t.path, { embedding: false });
    await db.ingest(['A', 'gene'], ['binds', 'association'], ['B', 'gene'], {
      source_type: 'literature',
      source_id: 's1',
    });
    // Below the engine's own memory budget (256 MiB), so the heap cap is what stops it.
    db.configureOffThread({ heap_mb: 64 });
    const big =
      "UNWIND range(1, 900000) AS x WITH collect(toString(x) + 'abcdefghijklmnopqrstuvwxyz') AS l RETURN size(l)";
    await assert.rejects(db.rawQuery(big, {}, { off_thread: true, timeout_ms: 120_000 }), (e: any) => {
      assert.equal(e.code, 'cypher_memory_limit');
      assert.equal(e.status, 413);
      assert.equal(e.problems[0].path, '/cypher');
      assert.match(e.message, /heap cap of 64 MB/);
      return true;
    });
    assert.equal(replicaOf(db)!.threadRunning, false, 'the thread is gone, and its heap with it');
    assert.deepEqual((await db.rawQuery('MATCH (n) RETURN count(n)', {}, { off_thread: true })).rows, [[2]]);
  } finally {
    t.cleanup();
  }
});

test('a what-if past its timeout_ms is stopped with its thread (408 what_if_timeout); the next one answers', async () => {
  const t = tempKb();
  try {
    await using db = await open(t.path, { embedding: false });
    await db.ingest(['A', 'gene'], ['binds', 'association'], ['B', 'gene'], {
      source_type: 'literature',
      source_id: 's1',
    });
    const add = Array.from({ length: 30_000 }, (_, i) => claim(`h${i}`, 'gene', 'binds', `k${i}`, 'gene', `w${i}`));
    // 30,000 claims take far longer than 1 ms and its grace (100 ms): the watchdog, not the call, ends it.
    await assert.rejects(db.whatIfSummary({ add_claims: add }, { off_thread: true, timeout_ms: 1 }), (e: any) => {
      assert.equal(e.code, 'what_if_timeout');
      assert.equal(e.status, 408);
      assert.equal(e.problems[0].path, '/timeout_ms');
      return true;
    });
    assert.equal(replicaOf(db)!.threadRunning, false);
    const s = await db.whatIfSummary({ add_claims: add.slice(0, 10) }, { off_thread: true });
    assert.equal(s.after.claim_count, 11);
  } finally {
    t.cleanup();
  }
});

test('max_waiting bounds the calls running or waiting: one more is refused with 429 busy and a time to retry', async () => {
  const t = tempKb();
  try {
    await using db = await open(t.path, { embedding: false });
    await db.ingest(['A', 'gene'], ['binds', 'association'], ['B', 'gene'], {
      source_type: 'literature',
      source_id: 's1',
    });
    db.configureOffThread({ max_waiting: 1 });
    const slow = db.rawQuery(
      'UNWIND range(1, 1000000000) AS x RETURN count(x)',
      {},
      { off_thread: true, timeout_ms: 3000 },
    );
    const refused = db.rawQuery('RETURN 1', {}, { off_thread: true });
    await assert.rejects(refused, (e: unknown) => {
      assert.ok(e instanceof KbBusyError);
      assert.equal(e.status, 429);
      assert.equal(e.code, 'busy');
      assert.ok(e.retry_after_s >= 1 && e.retry_after_s <= 4, String(e.retry_after_s));
      return true;
    });
    await assert.rejects(slow, (e: any) => e.code === 'cypher_timeout' && e.status === 408);
    assert.deepEqual((await db.rawQuery('RETURN 1 AS one', {}, { off_thread: true })).rows, [[1]]);
  } finally {
    t.cleanup();
  }
});

test('an idle thread ends after idle_ms (its memory given back); the next call builds its replica again', async () => {
  const t = tempKb();
  try {
    await using db = await open(t.path, { embedding: false });
    await db.ingest(['A', 'gene'], ['binds', 'association'], ['B', 'gene'], {
      source_type: 'literature',
      source_id: 's1',
    });
    db.configureOffThread({ idle_ms: 50 });
    assert.deepEqual((await db.rawQuery('MATCH (n) RETURN count(n)', {}, { off_thread: true })).rows, [[2]]);
    assert.equal(replicaOf(db)!.threadRunning, true);
    for (let i = 0; i < 100 && replicaOf(db)!.threadRunning; i++) await sleep(20);
    assert.equal(replicaOf(db)!.threadRunning, false);
    await db.ingest(['C', 'gene'], ['binds', 'association'], ['D', 'gene'], {
      source_type: 'literature',
      source_id: 's2',
    });
    assert.deepEqual((await db.rawQuery('MATCH (n) RETURN count(n)', {}, { off_thread: true })).rows, [[4]]);
    assert.throws(() => db.configureOffThread({ heap_mb: 1 }), /heap_mb/);
    assert.throws(() => db.configureOffThread({ heap: 100 } as never), /heap/);
  } finally {
    t.cleanup();
  }
});

test('whatIfSummary off the thread answers what it answers on it; its refusals name the field', async () => {
  const t = tempKb();
  try {
    await using db = await open(t.path, { embedding: false });
    await db.ingestBatch([
      claim('A', 'gene', 'binds', 'B', 'gene', 's1'),
      claim('B', 'gene', 'binds', 'C', 'gene', 's2'),
      claim('A', 'gene', 'binds', 'C', 'gene', 's3'),
    ]);
    const inputs = [
      { retract_sources: ['s1'] },
      { retract_sources: ['s2'], hypothesis: { subject: 'A', predicate: 'binds', object: 'C' } },
      {
        add_claims: [claim('C', 'gene', 'binds', 'D', 'gene', 's9'), claim('A', 'gene', 'binds', 'B', 'gene', 's9')],
        hypothesis: { subject: 'C', predicate: 'binds', object: 'D' },
      },
    ];
    // Claims added by a what-if get fresh ids and times on each call: compared without them.
    const fresh = new Set(['claim_id', 'claim_ids', 'created_at']);
    const comparable = (v: unknown) => JSON.parse(JSON.stringify(v, (k, x) => (fresh.has(k) ? undefined : x)));
    for (const input of inputs) {
      const here = await db.whatIfSummary(input);
      const there = await db.whatIfSummary(input, { off_thread: true });
      assert.deepEqual(comparable(there), comparable(here), JSON.stringify(input));
    }
    const s = await db.whatIfSummary(inputs[2]!, { off_thread: true });
    assert.deepEqual([s.before.claim_count, s.after.claim_count, s.after.entity_count], [3, 5, 4]);
    assert.equal(s.hypothesis?.verdict, 'supported');

    const bad = { add_claims: [claim('A', 'gene', 'binds', 'B', 'gene', 's1'), { subject: ['X', 'gene'] }] };
    for (const off_thread of [false, true]) {
      await assert.rejects(db.whatIfSummary(bad as never, { off_thread }), (e: any) => {
        assert.equal(e.status, 400);
        assert.match(e.problems[0].path, /^\/add_claims\/1\//);
        return true;
      });
      await assert.rejects(
        db.whatIfSummary({ retract_sources: ['nope'] }, { off_thread }),
        (e: any) => e.status === 404,
      );
    }
    await assert.rejects(
      db.whatIfSummary({ retract_sources: Array.from({ length: 10_001 }, (_, i) => `s${i}`) }),
      (e: any) => e.code === 'too_large' && e.problems[0].path === '/retract_sources',
    );
    await assert.rejects(
      db.whatIfSummary({ hypothesis: { subject: 'A', predicate: '', object: 'B' } }, { off_thread: true }),
      (e: any) => e.problems[0].path === '/hypothesis/predicate',
    );
  } finally {
    t.cleanup();
  }
});

test('a replica that does not fit its heap cap answers 503 off_thread_unavailable, naming heap_mb', async () => {
  const t = tempKb();
  try {
    await using db = await open(t.path, { embedding: false });
    await db.ingestBatch(
      Array.from({ length: 40_000 }, (_, i) =>
        claim(`gene ${i}`, 'gene', 'binds', `gene ${(i * 7) % 40_000}`, 'gene', `s${i % 300}`),
      ),
    );
    db.configureOffThread({ heap_mb: 16 });
    for (const q of ['MATCH (n) RETURN count(n)', 'RETURN 1']) {
      await assert.rejects(db.rawQuery(q, {}, { off_thread: true }), (e: any) => {
        assert.equal(e.code, 'off_thread_unavailable');
        assert.equal(e.status, 503);
        assert.match(e.message, /heap_mb/);
        return true;
      });
    }
    db.configureOffThread({ heap_mb: 512 });
    assert.deepEqual((await db.rawQuery('MATCH (n) RETURN count(n)', {}, { off_thread: true })).rows, [[40_000]]);
  } finally {
    t.cleanup();
  }
});

test('a job asked as the watchdog stops its thread for another job runs on a fresh thread, not answered 503', async () => {
  const t = tempKb();
  try {
    await using db = await open(t.path, { embedding: false });
    await db.ingest(['A', 'gene'], ['binds', 'association'], ['B', 'gene'], {
      source_type: 'literature',
      source_id: 's1',
    });
    assert.deepEqual((await db.rawQuery('RETURN 1 AS one', {}, { off_thread: true })).rows, [[1]]);
    // The engine stops the first query at 300 ms and answers; its watchdog is due at 400 ms. This thread is held
    // from 100 ms to 1,000 ms, as a busy server's may be, and the second query is asked as it comes back: it is
    // sent to the thread before the watchdog, whose turn comes next, stops that thread under it.
    const first = db.rawQuery(
      'UNWIND range(1, 1000000000) AS x RETURN count(x)',
      {},
      { off_thread: true, timeout_ms: 300 },
    );
    await sleep(100);
    // Held in a check phase (after a setImmediate), so that the next turn's timers, the watchdog's among them,
    // come before the thread's messages are read.
    await new Promise((r) => setImmediate(r));
    const until = Date.now() + 900;
    while (Date.now() < until) {
      // held
    }
    const second = db.rawQuery('UNWIND range(1, 300000) AS x RETURN count(x) AS n', {}, { off_thread: true });
    await assert.rejects(first, (e: any) => e.code === 'cypher_timeout' && e.status === 408);
    assert.deepEqual((await second).rows, [[300_000]]);
  } finally {
    t.cleanup();
  }
});
