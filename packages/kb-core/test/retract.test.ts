import { test } from 'node:test';
import assert from 'node:assert/strict';
import { open, KbNotFoundError, KbValidationError } from '../src/index.js';
import { tempKb, claim, sleep } from './helpers.js';

test('retract removes a source from every query, count and score but keeps its claims for audit', async () => {
  const t = tempKb();
  try {
    await using db = await open(t.path);
    const r = await db.ingestBatch([
      claim('IL6', 'gene', 'associated_with', 'rheumatoid arthritis', 'disease', 'paper-A'),
      claim('IL6', 'gene', 'associated_with', 'rheumatoid arthritis', 'disease', 'paper-B'),
      claim('IL6', 'gene', 'associated_with', 'sepsis', 'disease', 'paper-A'),
    ]);
    const events: unknown[] = [];
    db.on('source_retracted', (e) => events.push(e));
    const res = await db.retract('paper-A', 'fabricated data');
    assert.deepEqual(res.claim_ids, [r.claim_ids[0], r.claim_ids[2]]);
    assert.deepEqual(events, [
      { source_id: 'paper-A', reason: 'fabricated data', claim_ids: res.claim_ids, degraded_claim_ids: [] },
    ]);
    const frame = await db.query('IL6', { depth: 1 });
    assert.equal(frame.claim_count, 1);
    assert.deepEqual(
      frame.direct_relationships.map((x) => [x.target.id, x.source_count, x.claim_ids]),
      [['disease:rheumatoid arthritis', 1, [r.claim_ids[1]]]],
    );
    assert.equal(await db.resolve('sepsis'), null, 'an entity with no active claim leaves the base');
    const s = await db.stats();
    assert.equal(s.claim_count, 1);
    assert.equal(s.retracted_claims, 2);
    assert.equal(s.total_claims, 3);
    const audit = await db.claimsFor('IL6', { status: 'all' });
    assert.deepEqual(
      audit.map((c) => c.status),
      ['retracted', 'active', 'retracted'],
    );
    assert.equal((await db.getClaim(r.claim_ids[0]!))!.status, 'retracted');
    // Audit by name works for an entity whose claims are all retracted.
    assert.deepEqual(
      (await db.claimsFor('Sepsis', { status: 'all' })).map((c) => c.status),
      ['retracted'],
    );
    assert.deepEqual(await db.claimsFor('Sepsis'), []);
    await assert.rejects(db.retract('paper-Z', 'x'), KbNotFoundError);
    await assert.rejects(
      db.retract('paper-B', ''),
      (e: unknown) => e instanceof KbValidationError && e.field === 'reason',
    );
  } finally {
    t.cleanup();
  }
});

test('retractCascade degrades transitive dependants; traceDownstream lists them; plain retract does not', async () => {
  const t = tempKb();
  try {
    await using db = await open(t.path);
    const root = await db.ingest(['A', 'gene'], ['upregulates', 'regulation'], ['B', 'gene'], {
      source_type: 'experiment',
      source_id: 'lab-1',
    });
    const d1 = await db.ingest(['B', 'gene'], ['associated_with', 'association'], ['D', 'disease'], {
      source_type: 'inference',
      source_id: 'agent-1',
      derived_from: [root],
    });
    const d2 = await db.ingest(['A', 'gene'], ['associated_with', 'association'], ['D', 'disease'], {
      source_type: 'inference',
      source_id: 'agent-2',
      derived_from: [d1],
    });
    const other = await db.ingest(['C', 'gene'], ['associated_with', 'association'], ['D', 'disease'], {
      source_type: 'inference',
      source_id: 'agent-3',
    });
    const trace = await db.traceDownstream(root);
    assert.deepEqual(
      trace.map((c) => [c.claim_id, c.depth]),
      [
        [d1, 1],
        [d2, 2],
      ],
    );

    const res = await db.retractCascade('lab-1', 'contaminated samples');
    assert.deepEqual(res.claim_ids, [root]);
    assert.deepEqual(res.degraded_claim_ids, [d1, d2]);
    assert.equal((await db.getClaim(d1))!.status, 'degraded');
    assert.equal((await db.getClaim(d2))!.status, 'degraded');
    assert.equal((await db.getClaim(other))!.status, 'active');
    assert.equal((await db.query('D', { depth: 1 })).claim_count, 1);
    assert.deepEqual(
      (await db.traceDownstream(root)).map((c) => c.status),
      ['degraded', 'degraded'],
    );
    // A new claim may not be derived from a retracted one.
    await assert.rejects(
      db.ingest(['X', 'gene'], ['associated_with', 'a'], ['D', 'disease'], {
        source_type: 'inference',
        source_id: 'agent-4',
        derived_from: [root],
      }),
      (e: unknown) => e instanceof KbValidationError && e.code === 'retracted_reference',
    );

    // Without cascade, dependants stay active.
    const t2 = tempKb();
    try {
      await using db2 = await open(t2.path);
      const r2 = await db2.ingest(['A', 'gene'], ['upregulates', 'regulation'], ['B', 'gene'], {
        source_type: 'experiment',
        source_id: 'lab-1',
      });
      const dep = await db2.ingest(['B', 'gene'], ['associated_with', 'association'], ['D', 'disease'], {
        source_type: 'inference',
        source_id: 'agent-1',
        derived_from: [r2],
      });
      const plain = await db2.retract('lab-1', 'x');
      assert.deepEqual(plain.degraded_claim_ids, []);
      assert.equal((await db2.getClaim(dep))!.status, 'active');
    } finally {
      t2.cleanup();
    }
  } finally {
    t.cleanup();
  }
});

test('retraction and degradation survive reopen (they are log events)', async () => {
  const t = tempKb();
  try {
    let root: string;
    let dep: string;
    {
      await using db = await open(t.path);
      root = await db.ingest(['A', 'gene'], ['upregulates', 'regulation'], ['B', 'gene'], {
        source_type: 'experiment',
        source_id: 'lab-1',
      });
      dep = await db.ingest(['B', 'gene'], ['associated_with', 'association'], ['D', 'disease'], {
        source_type: 'inference',
        source_id: 'agent-1',
        derived_from: [root],
      });
      await db.retractCascade('lab-1', 'x');
    }
    await using db = await open(t.path);
    assert.equal((await db.getClaim(root))!.status, 'retracted');
    assert.equal((await db.getClaim(dep))!.status, 'degraded');
    assert.equal((await db.stats()).claim_count, 0);
  } finally {
    t.cleanup();
  }
});

test('at(timestamp) answers as of that moment: before ingest, between, after retraction', async () => {
  const t = tempKb();
  try {
    await using db = await open(t.path);
    const t0 = new Date();
    await sleep(5);
    const a = await db.ingest(['MTOR', 'gene'], ['associated_with', 'association'], ['obesity', 'disease'], {
      source_type: 'literature',
      source_id: 'p1',
    });
    await sleep(5);
    const t1 = new Date();
    await sleep(5);
    await db.ingest(['MTOR', 'gene'], ['associated_with', 'association'], ['obesity', 'disease'], {
      source_type: 'database',
      source_id: 'db1',
    });
    await db.ingest(['MTOR', 'gene'], ['associated_with', 'association'], ['aging', 'phenotype'], {
      source_type: 'database',
      source_id: 'db1',
    });
    await sleep(5);
    const t2 = new Date();
    await sleep(5);
    await db.retract('p1', 'retracted paper');
    await sleep(5);

    const v0 = await db.at(t0);
    assert.equal(await v0.resolve('MTOR'), null);
    assert.equal((await v0.stats()).claim_count, 0);

    const v1 = await db.at(t1.toISOString());
    const f1 = await v1.query('mtor', { depth: 1 });
    assert.equal(f1.claim_count, 1);
    assert.deepEqual(
      f1.direct_relationships.map((r) => [r.target.name, r.source_count]),
      [['obesity', 1]],
    );
    assert.equal((await v1.getClaim(a))!.status, 'active');

    const v2 = await db.at(t2.getTime());
    const f2 = await v2.query('MTOR', { depth: 1 });
    assert.equal(f2.claim_count, 3);
    assert.equal(f2.direct_relationships.find((r) => r.target.name === 'obesity')!.source_count, 2);

    const now = await db.query('MTOR', { depth: 1 });
    assert.equal(now.claim_count, 2);
    assert.equal(now.direct_relationships.find((r) => r.target.name === 'obesity')!.source_count, 1);
    assert.equal((await v2.getClaim(a))!.status, 'active', 'the view still sees the claim as active then');
    assert.equal((await db.getClaim(a))!.status, 'retracted');
    await assert.rejects(
      db.at('not a date'),
      (e: unknown) => e instanceof KbValidationError && e.field === 'timestamp',
    );
  } finally {
    t.cleanup();
  }
});

test('events fire for batches too; a throwing listener is logged and never reaches the caller', async () => {
  const t = tempKb();
  try {
    await using db = await open(t.path);
    const ingested: string[] = [];
    const bad = () => {
      throw new Error('listener bug');
    };
    const orig = console.error;
    let logged = 0;
    console.error = () => {
      logged++;
    };
    try {
      db.on('claim_ingested', bad);
      db.on('claim_ingested', (e) => ingested.push(e.claim_id));
      const r = await db.ingestBatch([
        claim('A', 'gene', 'x', 'B', 'gene', 's'),
        claim('C', 'gene', 'x', 'D', 'gene', 's'),
      ]);
      assert.deepEqual(ingested, r.claim_ids);
      assert.equal(logged, 2);
      db.off('claim_ingested', bad);
      await db.ingest(['E', 'gene'], ['x', 'y'], ['F', 'gene'], { source_type: 't', source_id: 's' });
      assert.equal(logged, 2);
      assert.equal(ingested.length, 3);
    } finally {
      console.error = orig;
    }
  } finally {
    t.cleanup();
  }
});

test("a source's claims ingested after an earlier retraction are all retracted with it, live and after reopen", async () => {
  const t = tempKb();
  try {
    const batch = (from: number, n: number, source: string) =>
      Array.from({ length: n }, (_, i) =>
        claim(`G${from + i}`, 'gene', 'associated_with', `D${(from + i) % 7}`, 'disease', source),
      );
    let retracted: string[];
    {
      await using db = await open(t.path);
      await db.ingestBatch([...batch(0, 30, 'pmid:1'), ...batch(100, 5, 'pmid:2')]);
      // The first retraction is of another source; pmid:1 then gets more claims, some in between others.
      await db.retract('pmid:2', 'bad lab');
      await db.ingestBatch([...batch(30, 10, 'pmid:1'), ...batch(200, 3, 'pmid:3'), ...batch(40, 10, 'pmid:1')]);
      await db.ingest(['G999', 'gene'], ['associated_with', 'association'], ['D1', 'disease'], {
        source_type: 'literature',
        source_id: 'pmid:1',
      });
      const r = await db.retract('pmid:1', 'retracted paper');
      retracted = r.claim_ids;
      assert.equal(retracted.length, 51);
      assert.equal((await db.stats()).claim_count, 3);
    }
    await using again = await open(t.path);
    assert.equal((await again.stats()).claim_count, 3);
    // Retracting pmid:1 again finds nothing left to retract.
    assert.deepEqual((await again.retract('pmid:1', 'again')).claim_ids, []);
    assert.equal(new Set(retracted).size, 51);
  } finally {
    t.cleanup();
  }
});
