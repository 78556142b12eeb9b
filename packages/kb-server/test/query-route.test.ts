// POST /api/v1/query against a real temporary SQLite base: rows and graph values, parameters, retracted claims
// leaving the graph, and the refusals (syntax with its position, write clauses, budgets, bad bodies).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { open, type KbDB } from '@evident/kb';
import { buildConsole } from '../src/console/server.js';
import { tempKb } from './helpers.js';

const kb = tempKb('query.kb');
let db: KbDB;
let app: FastifyInstance;

before(async () => {
  db = await open(kb.path);
  const prov = (id: string) => ({ source_type: 'literature', source_id: id });
  await db.ingest(['olaparib', 'drug'], ['inhibits', 'molecular'], ['PARP1', 'protein'], prov('pmid:1'));
  await db.ingest(['olaparib', 'drug'], ['inhibits', 'molecular'], ['PARP1', 'protein'], prov('pmid:2'));
  await db.ingest(['olaparib', 'drug'], ['treats', 'therapeutic'], ['breast cancer', 'disease'], prov('pmid:3'));
  await db.ingest(['niraparib', 'drug'], ['inhibits', 'molecular'], ['PARP1', 'protein'], prov('pmid:4'));
  app = await buildConsole(db);
});

after(async () => {
  await app?.close();
  await db?.close();
  kb.cleanup();
});

const query = (payload: unknown) => app.inject({ method: 'POST', url: '/api/v1/query', payload: payload as object });

test('a query answers columns and rows; nodes and relationships carry the KB ids', async () => {
  const r = await query({
    cypher: 'MATCH (d:drug)-[r:INHIBITS]->(p {name: $target}) RETURN d.name AS drug, r.source_count AS n ORDER BY drug',
    params: { target: 'PARP1' },
  });
  assert.equal(r.statusCode, 200, r.body);
  const body = r.json();
  assert.deepEqual(body.columns, ['drug', 'n']);
  assert.deepEqual(body.rows, [
    ['niraparib', 1],
    ['olaparib', 2],
  ]);
  assert.equal(body.stats.rows, 2);

  const g = (await query({ cypher: 'MATCH (d)-[r:TREATS]->(x) RETURN d, r' })).json();
  const [node, rel] = g.rows[0];
  assert.equal(node.kind, 'node');
  // Entity types are PascalCase labels (kb-core src/cypher/README.md); `:drug` stays an alias.
  assert.deepEqual(node.labels, ['Drug', 'Entity']);
  assert.equal(rel.kind, 'relationship');
  assert.equal(rel.start, node.id);
  assert.equal(rel.properties.predicate, 'treats');
});

test('a retracted source leaves the graph the query sees', async () => {
  await db.retract('pmid:3', 'withdrawn');
  const r = (await query({ cypher: 'MATCH ()-[r:TREATS]->() RETURN count(r) AS n' })).json();
  assert.deepEqual(r.rows, [[0]]);
});

test('refusals: syntax with its position, writes, row budget, bad bodies', async () => {
  const syntax = await query({ cypher: 'MATCH (n RETURN n' });
  assert.equal(syntax.statusCode, 400);
  assert.match(syntax.json().error.message, /line 1/i);

  const write = await query({ cypher: "CREATE (n:drug {name: 'x'})" });
  assert.equal(write.statusCode, 400);
  assert.equal(write.json().error.code, 'cypher_read_only');

  const rows = await query({ cypher: 'UNWIND range(1, 100) AS i RETURN i', max_rows: 10 });
  assert.equal(rows.statusCode, 413, rows.body);

  const empty = await query({ cypher: '' });
  assert.equal(empty.statusCode, 400);
  assert.equal(empty.json().error.code, 'invalid_parameters');
  const extra = await query({ cypher: 'RETURN 1', limit: 3 });
  assert.equal(extra.statusCode, 400);
});

// Every node of a plan tree, depth first.
const walk = (p: any): any[] => [p, ...p.children.flatMap(walk)];

test('explain / profile (fields or prefix) answer the plan tree; profile with rows and time per operator', async () => {
  const cypher = 'MATCH (d:drug)-[:INHIBITS]->(p) RETURN d.name AS drug ORDER BY drug';
  const plain = (await query({ cypher })).json();
  assert.equal(plain.plan, undefined);

  const explained = await query({ cypher, explain: true });
  assert.equal(explained.statusCode, 200, explained.body);
  const e = explained.json();
  assert.deepEqual(e.rows, [], 'EXPLAIN does not run the query');
  assert.deepEqual(e.columns, ['drug']);
  const eOps = walk(e.plan);
  assert.equal(e.plan.operator, 'ProduceResults');
  // The hop is read by an Expand from one end or a RelationshipScan of the type, as the planner's counts choose, or
  // walked over slots as a chain from either (ChainProjection).
  assert.ok(
    eOps.some(
      (o) => ['Expand', 'RelationshipScan', 'ChainProjection'].includes(o.operator) && /\[:INHIBITS\]/.test(o.details),
    ),
    JSON.stringify(e.plan),
  );
  assert.ok(eOps.every((o) => typeof o.estimated_rows === 'number' && o.rows === undefined));

  for (const payload of [
    { cypher, profile: true },
    { cypher: `PROFILE ${cypher}` },
    { cypher, explain: true, profile: true },
  ]) {
    const r = await query(payload);
    assert.equal(r.statusCode, 200, r.body);
    const p = r.json();
    assert.deepEqual(p.rows, [['niraparib'], ['olaparib']], 'PROFILE runs the query');
    assert.equal(p.plan.rows, 2, 'the top operator gave the result rows');
    for (const o of walk(p.plan)) {
      assert.ok(Number.isInteger(o.rows) && o.time_ms >= 0, JSON.stringify(o));
    }
  }

  const prefixed = (await query({ cypher: `EXPLAIN ${cypher}`, profile: true })).json();
  assert.deepEqual(prefixed.rows, [], 'a prefix in the text is kept over the field');
  const bad = await query({ cypher, profile: 'yes' });
  assert.equal(bad.statusCode, 400, bad.body);
});

test('a syntax error under explain / profile reports the line and column of the text as sent', async () => {
  const cypher = 'MATCH (d:Drug)\nWHERE d.name = $n RETRUN d';
  const plain = await query({ cypher, params: { n: 'x' } });
  assert.equal(plain.statusCode, 400, plain.body);
  const error = plain.json().error;
  assert.match(error.message, /line 2, column 19/);
  for (const fields of [{ profile: true }, { explain: true }]) {
    const r = await query({ cypher, params: { n: 'x' }, ...fields });
    assert.equal(r.statusCode, 400, r.body);
    assert.deepEqual(r.json().error, error, JSON.stringify(fields));
  }
  // On one line too: a prefix added to the text would have moved the column.
  const one = 'RETURN 1 +';
  const at = (await query({ cypher: one })).json().error.message;
  assert.match(at, /line 1, column/);
  assert.equal((await query({ cypher: one, profile: true })).json().error.message, at);
});

test('a PROFILE stopped by a budget answers its error with data.plan: rows and time per operator so far', async () => {
  const cypher = 'UNWIND range(1, 100) AS i MATCH (d:Drug) RETURN i, d.name';
  const rows = await query({ cypher, max_rows: 10, profile: true });
  assert.equal(rows.statusCode, 413, rows.body);
  const error = rows.json().error;
  assert.equal(error.code, 'cypher_too_many_rows');
  assert.equal(error.data.plan.operator, 'ProduceResults');
  // The row past the budget stopped it: the top operator gave max_rows + 1 rows.
  assert.equal(error.data.plan.rows, 11);
  for (const o of walk(error.data.plan)) assert.ok(Number.isInteger(o.rows) && o.time_ms >= 0, JSON.stringify(o));
  // Without profile the same refusal has no plan.
  const plain = await query({ cypher, max_rows: 10 });
  assert.equal(plain.statusCode, 413);
  assert.equal(plain.json().error.data, undefined);

  // Past the time budget: the engine's deadline stops it, and says where the time went.
  const slow = await query({
    cypher: 'UNWIND range(1, 1000000000) AS i WITH i WHERE i < 0 RETURN count(*) AS n',
    timeout_ms: 1000,
    profile: true,
  });
  assert.equal(slow.statusCode, 408, slow.body);
  const timeout = slow.json().error;
  assert.equal(timeout.code, 'cypher_timeout');
  assert.ok(
    walk(timeout.data.plan).some((o) => o.rows > 0),
    JSON.stringify(timeout.data.plan),
  );
});
