import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KbCypherReadOnlyError, KbValidationError, MAX_PARAM_DEPTH, open } from '../src/index.js';
import { claim, sleep, tempKb } from './helpers.js';

test('rawQuery: entities are nodes, facts are relationships typed by the upper-cased predicate', async () => {
  const t = tempKb();
  try {
    await using db = await open(t.path);
    await db.ingestBatch([
      claim('EGFR', 'gene', 'inhibited_by', 'erlotinib', 'drug', 's1', { confidence: 0.5 }),
      claim('EGFR', 'gene', 'inhibited_by', 'erlotinib', 'drug', 's2', { confidence: 0.5 }),
      claim('EGFR', 'gene', 'associated_with', 'NSCLC', 'disease', 's1', { confidence: 0.9 }),
      claim('KRAS', 'gene', 'associated_with', 'NSCLC', 'disease', 's3', { confidence: 0.8 }),
    ]);
    const started = performance.now();
    const r = await db.rawQuery(
      'MATCH (g:gene)-[r:INHIBITED_BY]->(d:Entity) RETURN g.name AS gene, d.type AS t, r.predicate AS p, r.source_count AS n, r.confidence AS c',
    );
    const wall = performance.now() - started;
    assert.deepEqual(r.columns, ['gene', 't', 'p', 'n', 'c']);
    assert.equal(r.rows.length, 1);
    const [gene, type, predicate, sources, confidence] = r.rows[0]!;
    assert.equal(gene, 'EGFR');
    assert.equal(type, 'drug');
    assert.equal(predicate, 'inhibited_by');
    assert.equal(sources, 2);
    // Noisy-OR over two sources at 0.5 each.
    assert.ok(Math.abs((confidence as number) - 0.75) < 1e-12);
    assert.equal(r.stats.rows, 1);
    // Measured, not a constant: inside the wall time this test measured around the call.
    assert.ok(
      r.stats.elapsed_ms > 0 && r.stats.elapsed_ms <= wall,
      `elapsed ${r.stats.elapsed_ms} ms, wall ${wall} ms`,
    );

    // A 2-hop count and an aggregation by entity type, with a parameter.
    const two = await db.rawQuery(
      'MATCH (a:gene {name: $name})-[:ASSOCIATED_WITH]->(:disease)<-[:ASSOCIATED_WITH]-(b) RETURN b.name AS other',
      { name: 'EGFR' },
    );
    assert.deepEqual(two.rows, [['KRAS']]);
    const byType = await db.rawQuery('MATCH (n:Entity) RETURN n.type AS type, count(*) AS n ORDER BY type');
    assert.deepEqual(byType.rows, [
      ['disease', 1],
      ['drug', 1],
      ['gene', 2],
    ]);
    // Nodes come back with the KB's entity ids.
    const nodes = await db.rawQuery('MATCH (n) WHERE n.name = "KRAS" RETURN n');
    const node = nodes.rows[0]![0] as { kind: string; id: string; labels: string[] };
    assert.equal(node.kind, 'node');
    assert.deepEqual(node.labels, ['Gene', 'Entity']);
    assert.equal(node.id, (await db.resolve('KRAS'))!);
    // A lookup by id (answered from the entity index) with a parameter.
    const byId = await db.rawQuery('MATCH (n:Entity) WHERE n.id = $id RETURN n.name AS name', { id: node.id });
    assert.deepEqual(byId.rows, [['KRAS']]);
  } finally {
    t.cleanup();
  }
});

test('rawQuery refuses writes, bad budgets and syntax errors with typed errors; at() views see the past', async () => {
  const t = tempKb();
  try {
    await using db = await open(t.path);
    await db.ingest(['A', 'gene'], ['x', 'association'], ['B', 'gene'], { source_type: 't', source_id: 's1' });
    await sleep(5);
    const mid = Date.now();
    await sleep(5);
    await db.ingest(['A', 'gene'], ['y', 'association'], ['C', 'gene'], { source_type: 't', source_id: 's2' });

    await assert.rejects(db.rawQuery('CREATE (n:gene {name: "x"})'), KbCypherReadOnlyError);
    await assert.rejects(db.rawQuery('MATCH (n) DETACH DELETE n'), (e: unknown) => {
      assert.ok(e instanceof KbCypherReadOnlyError);
      assert.match(e.message, /write through claims/);
      return true;
    });
    await assert.rejects(db.rawQuery('MATCH (n RETURN n'), (e: unknown) => {
      const err = e as { code: string; message: string };
      assert.equal(err.code, 'cypher_syntax_error');
      assert.match(err.message, /line 1, column 10/);
      return true;
    });
    await assert.rejects(db.rawQuery('RETURN 1', {}, { max_rows: 0 }), KbValidationError);
    await assert.rejects(db.rawQuery('', {}), KbValidationError);
    await assert.rejects(db.rawQuery('UNWIND range(1, 5) AS x RETURN x', {}, { max_rows: 2 }), {
      code: 'cypher_too_many_rows',
    });
    // max_list_size: the collect over the list limit is refused; raised, the same query answers.
    const collect5 = 'UNWIND range(1, 5) AS x RETURN collect(x) AS xs';
    await assert.rejects(db.rawQuery(collect5, {}, { max_list_size: 4 }), { code: 'cypher_list_too_large' });
    assert.deepEqual((await db.rawQuery(collect5, {}, { max_list_size: 5 })).rows[0]![0], [1, 2, 3, 4, 5]);
    await assert.rejects(db.rawQuery('RETURN 1', {}, { max_list_size: 0 }), /max_list_size/);

    assert.equal((await db.rawQuery('MATCH ()-[r]->() RETURN count(r) AS n')).rows[0]![0], 2);
    const past = await db.at(mid);
    assert.deepEqual((await past.rawQuery('MATCH ()-[r]->() RETURN type(r) AS t')).rows, [['X']]);
    // The base keeps serving after refusals.
    assert.equal((await db.rawQuery('MATCH (n:gene) RETURN count(n) AS n')).rows[0]![0], 3);
  } finally {
    t.cleanup();
  }
});

test('rawQuery: an aggregation over the entity columns equals the row-by-row answer, now and at(t)', async () => {
  const t = tempKb();
  try {
    await using db = await open(t.path);
    await db.ingestBatch([
      claim('EGFR', 'gene', 'inhibited_by', 'erlotinib', 'drug', 's1'),
      claim('EGFR', 'gene', 'associated_with', 'NSCLC', 'disease', 's1'),
      claim('KRAS', 'gene', 'associated_with', 'NSCLC', 'disease', 's2'),
    ]);
    await sleep(5);
    const mid = Date.now();
    await sleep(5);
    await db.ingestBatch([
      claim('TP53', 'gene', 'associated_with', 'NSCLC', 'disease', 's3'),
      claim('KRAS', 'gene', 'inhibited_by', 'sotorasib', 'drug', 's3'),
      claim('sotorasib', 'drug', 'treats', 'NSCLC', 'disease', 's4'),
    ]);
    const queries = [
      'RETURN n.type AS type, count(*) AS n, avg(n.claim_count) AS mean, sum(n.claim_count) AS s',
      'RETURN count(n) AS n, min(n.claim_count) AS lo, max(n.claim_count) AS hi, count(n.name) AS names',
      'RETURN n.name AS name, n.id AS id, sum(n.claim_count) AS s',
      'RETURN count(*) AS n',
      'RETURN n.type AS type, count(*) AS n ORDER BY n DESC, type LIMIT 2',
    ];
    const sorted = (rows: unknown[][]) => rows.map((r) => JSON.stringify(r)).sort();
    for (const view of [db, await db.at(mid)]) {
      for (const label of ['Entity', 'gene']) {
        for (const q of queries) {
          const pushed = await view.rawQuery(`MATCH (n:${label}) ${q}`);
          // A predicate the columns cannot answer keeps the plan on its row-by-row path.
          const rows = await view.rawQuery(`MATCH (n:${label}) WHERE n.name IS NOT NULL ${q}`);
          assert.deepEqual(sorted(pushed.rows), sorted(rows.rows), `${label}: ${q}`);
          const filtered = await view.rawQuery(`MATCH (n:${label}) WHERE n.claim_count > 1 ${q}`);
          const filteredRows = await view.rawQuery(
            `MATCH (n:${label}) WHERE n.claim_count > 1 AND n.name IS NOT NULL ${q}`,
          );
          assert.deepEqual(sorted(filtered.rows), sorted(filteredRows.rows), `${label}: WHERE … ${q}`);
        }
      }
    }
    const byType = await db.rawQuery('MATCH (n:Entity) RETURN n.type AS type, count(*) AS n, sum(n.claim_count) AS c');
    assert.deepEqual(
      sorted(byType.rows),
      sorted([
        ['gene', 3, 5],
        ['drug', 2, 3],
        ['disease', 1, 4],
      ]),
    );
  } finally {
    t.cleanup();
  }
});

test('rawQuery: parameters nested past MAX_PARAM_DEPTH are refused naming the limit and the path, on either thread; deep results convert without recursion', async () => {
  const t = tempKb();
  try {
    await using db = await open(t.path);
    await db.ingestBatch([claim('EGFR', 'gene', 'inhibited_by', 'erlotinib', 'drug', 's1', { confidence: 0.5 })]);
    const nested = (levels: number): unknown => {
      let v: unknown = 7;
      for (let i = 0; i < levels; i++) v = i % 2 === 0 ? [v] : { 'k/~': v };
      return v;
    };
    // A hundred thousand levels: a recursive conversion overflowed the stack (a 500 through the console).
    for (const off_thread of [false, true]) {
      await assert.rejects(
        db.rawQuery('RETURN $a AS a', { ok: 1, a: nested(100_000) }, { off_thread }),
        (e: unknown) => {
          assert.ok(e instanceof KbValidationError);
          assert.equal(e.code, 'too_deep');
          assert.equal(e.status, 400);
          assert.match(e.message, new RegExp(`deeper than ${MAX_PARAM_DEPTH} levels`));
          const path = e.problems![0]!.path;
          assert.match(path, /^\/params\/a\/k~1~0\/0\/k~1~0\//, 'the path escapes / and ~ as a JSON pointer');
          return true;
        },
      );
    }
    // The value just past the limit is named where it starts: MAX_PARAM_DEPTH containers above it.
    await assert.rejects(db.rawQuery('RETURN $a AS a', { a: nested(MAX_PARAM_DEPTH + 1) }), (e: unknown) => {
      assert.ok(e instanceof KbValidationError);
      assert.equal(e.problems![0]!.path.split('/').length, 2 + MAX_PARAM_DEPTH + 1);
      return true;
    });
    // At the limit the value runs and comes back unchanged (integers as numbers, key order and odd keys kept).
    const atLimit = nested(MAX_PARAM_DEPTH);
    const r = await db.rawQuery('RETURN $a AS a', { a: atLimit });
    assert.deepEqual(r.rows, [[atLimit]]);
    const m = await db.rawQuery('RETURN {b: 1, a: [2, {z: 3, y: 4}], __proto__: 5} AS m');
    assert.deepEqual(JSON.stringify(m.rows), '[[{"b":1,"a":[2,{"z":3,"y":4}],"__proto__":5}]]');
    assert.equal(Object.getPrototypeOf(m.rows[0]![0]), Object.prototype);
    // A value a query builds 990 levels deep (under the engine's own max_value_depth) converts, on either thread,
    // and as JSON; its node keeps its KB form.
    const deepQuery = `MATCH (g:gene) WITH g AS x ${'WITH {a: [x]} AS x '.repeat(495)}RETURN x`;
    for (const off_thread of [false, true]) {
      const d = await db.rawQuery(deepQuery, {}, { off_thread });
      let v = d.rows[0]![0] as { a: unknown[] } | { kind: string; id: string };
      let levels = 0;
      while ('a' in v) {
        v = v.a[0] as typeof v;
        levels += 2;
      }
      assert.equal(levels, 990);
      assert.deepEqual([v.kind, v.id], ['node', 'gene:egfr']);
    }
    const json = JSON.parse(await db.rawQueryJson(deepQuery));
    assert.equal(json.rows.length, 1);
  } finally {
    t.cleanup();
  }
});

test('rawQuery: EXPLAIN gives the plan without running, PROFILE runs it with rows per operator, on either thread', async () => {
  const t = tempKb();
  try {
    await using db = await open(t.path);
    await db.ingestBatch([
      claim('EGFR', 'gene', 'inhibited_by', 'erlotinib', 'drug', 's1'),
      claim('EGFR', 'gene', 'associated_with', 'NSCLC', 'disease', 's1'),
      claim('KRAS', 'gene', 'associated_with', 'NSCLC', 'disease', 's2'),
    ]);
    type Plan = { operator: string; details: string; rows?: number; children: Plan[] };
    const ops = (p: Plan): string[] => [p.operator, ...p.children.flatMap(ops)];
    const id = (await db.resolve('EGFR'))!;
    const q = 'MATCH (a:Entity {id: $id})-[r]->(b) RETURN b.name AS name ORDER BY name';
    const explained = await db.rawQuery(`EXPLAIN ${q}`, { id });
    assert.deepEqual(explained.rows, []);
    assert.deepEqual(explained.columns, ['name']);
    // The id is the entity index: the plan starts with a seek, not a scan of every entity.
    assert.ok(ops(explained.plan as Plan).includes('NodeIndexSeek'), JSON.stringify(explained.plan));
    for (const off_thread of [false, true]) {
      const profiled = await db.rawQuery(`PROFILE ${q}`, { id }, { off_thread });
      assert.deepEqual(profiled.rows, [['NSCLC'], ['erlotinib']]);
      const plan = profiled.plan as Plan;
      assert.equal(plan.rows, 2);
      const seek = (function find(p: Plan): Plan | undefined {
        return p.operator === 'NodeIndexSeek' ? p : p.children.map(find).find((x) => x);
      })(plan);
      assert.equal(seek?.rows, 1);
    }
    // Counting every entity is answered from the counts, and equals the scan.
    const counted = await db.rawQuery('PROFILE MATCH (n:gene) RETURN count(*) AS n');
    assert.deepEqual(counted.rows, [[2]]);
    assert.ok(ops(counted.plan as Plan).includes('NodeCount'));
    const plain = await db.rawQuery('MATCH (n:gene) WHERE n.id IS NOT NULL RETURN count(*) AS n');
    assert.deepEqual(plain.rows, [[2]]);
    // Without a prefix there is no plan in the result.
    assert.equal((await db.rawQuery(q, { id })).plan, undefined);
    // The mode option, on either thread and in rawQueryJson: the plan without a prefix in the text.
    for (const off_thread of [false, true]) {
      const p = await db.rawQuery(q, { id }, { mode: 'profile', off_thread });
      assert.deepEqual(p.rows, [['NSCLC'], ['erlotinib']]);
      assert.equal((p.plan as Plan).rows, 2);
      const e = await db.rawQuery(q, { id }, { mode: 'explain', off_thread });
      assert.deepEqual(e.rows, []);
      assert.ok(ops(e.plan as Plan).includes('NodeIndexSeek'));
    }
    assert.equal(JSON.parse(await db.rawQueryJson(q, { id }, { mode: 'profile' })).plan.rows, 2);
    await assert.rejects(db.rawQuery(q, { id }, { mode: 'run' as 'explain' }), KbValidationError);
  } finally {
    t.cleanup();
  }
});

test('rawQuery: entity types are PascalCase labels, the stored form an alias, in scans, filters, expansions, counts and estimates', async () => {
  const t = tempKb();
  try {
    await using db = await open(t.path);
    await db.ingestBatch([
      claim('EGFR', 'gene', 'inhibited_by', 'erlotinib', 'drug', 's1'),
      claim('EGFR', 'gene', 'inhibited_by', 'gefitinib', 'drug', 's2'),
      claim('EGFR', 'gene', 'part_of', 'EGFR dimer', 'protein_complex', 's3'),
    ]);
    for (const label of ['Drug', 'drug']) {
      const scanned = await db.rawQuery(`MATCH (d:${label}) RETURN d.name AS n ORDER BY n`);
      assert.deepEqual(scanned.rows, [['erlotinib'], ['gefitinib']], label);
      const expanded = await db.rawQuery(`MATCH (:Gene)-[]->(d:${label}) RETURN count(*) AS n`);
      assert.deepEqual(expanded.rows, [[2]], label);
      const filtered = await db.rawQuery(`MATCH (d) WHERE d:${label} RETURN count(d) AS n`);
      assert.deepEqual(filtered.rows, [[2]], label);
      const counted = await db.rawQuery(`MATCH (d:${label}) RETURN count(*) AS n`);
      assert.deepEqual(counted.rows, [[2]], label);
      // The planner's estimate for the label is the label's count under either spelling.
      const explained = await db.rawQuery(`EXPLAIN MATCH (d:${label}) RETURN d`);
      const scan = (function find(p: { operator: string; estimated_rows: number; children: any[] }): any {
        return p.operator.includes('Scan') ? p : p.children.map(find).find((x: unknown) => x);
      })(explained.plan as any);
      assert.equal(scan?.estimated_rows, 2, JSON.stringify(explained.plan));
    }
    // protein_complex is typed as ProteinComplex; labels(n) and result nodes show the PascalCase form.
    const complex = await db.rawQuery('MATCH (c:ProteinComplex) RETURN c.name AS n, labels(c) AS l, c.type AS t, c');
    assert.deepEqual(complex.rows[0]!.slice(0, 3), ['EGFR dimer', ['ProteinComplex', 'Entity'], 'protein_complex']);
    assert.deepEqual((complex.rows[0]![3] as { labels: string[] }).labels, ['ProteinComplex', 'Entity']);
    assert.deepEqual((await db.rawQuery('MATCH (c:protein_complex) RETURN count(c) AS n')).rows, [[1]]);
    // A label that is neither form matches nothing.
    assert.deepEqual((await db.rawQuery('MATCH (d:DRUG) RETURN count(d) AS n')).rows, [[0]]);
    assert.deepEqual((await db.rawQuery('MATCH (d:Proteincomplex) RETURN count(d) AS n')).rows, [[0]]);
  } finally {
    t.cleanup();
  }
});
