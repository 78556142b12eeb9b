// kb-mcp end to end: the SDK client spawns the real bin over stdio against a temporary SQLite base.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createTempDatabase, probePostgres, repoRoot } from '@evident/testkit';
import { fieldToPointer } from '@evident/contract';
import { quickstart } from '@evident/kb';
import { tempKb } from './helpers.js';
import { OPERATIONS } from '../src/operations/table.js';

const pgProbe = await probePostgres();
const BIN = ['--conditions=evident-source', '--import', 'tsx', 'packages/kb-server/src/bin/kb-mcp.ts'];
const kb = tempKb('mcp.kb');
let client: Client;
let stderr = '';

type ToolResult = { isError?: boolean; content: { type: string; text?: string }[]; structuredContent?: any };
const call = async (name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args })) as ToolResult;
const ok = async (name: string, args: Record<string, unknown> = {}) => {
  const r = await call(name, args);
  assert.ok(!r.isError, `${name} failed: ${r.content[0]?.text}`);
  assert.deepEqual(JSON.parse(r.content[0]!.text!), r.structuredContent, 'text content mirrors structured content');
  return r.structuredContent;
};
const fails = async (name: string, args: Record<string, unknown>, code: string, field?: string) => {
  const r = await call(name, args);
  assert.equal(r.isError, true, `${name} should fail`);
  const body = JSON.parse(r.content[0]!.text!);
  assert.equal(body.error.code, code, r.content[0]!.text);
  if (field) assert.equal(body.error.details?.[0]?.path, fieldToPointer(field), r.content[0]!.text);
  return body.error;
};

before(async () => {
  const db = await quickstart(kb.path);
  await db.ingest(['BRCA1', 'gene'], ['associated_with', 'association'], ['breast cancer', 'disease'], {
    source_type: 'literature',
    source_id: 'PMID:1',
  });
  await db.ingest(['BRCA1', 'gene'], ['associated_with', 'association'], ['breast cancer', 'disease'], {
    source_type: 'database',
    source_id: 'omim',
  });
  await db.ingest(['olaparib', 'drug'], ['targets', 'pharmacology'], ['PARP1', 'protein'], {
    source_type: 'database',
    source_id: 'chembl',
  });
  await db.ingest(['PARP1', 'protein'], ['interacts_with', 'molecular'], ['BRCA1', 'gene'], {
    source_type: 'experiment',
    source_id: 'exp-7',
  });
  await db.ingest(['olaparib', 'drug'], ['treats', 'pharmacology'], ['breast cancer', 'disease'], {
    source_type: 'literature',
    source_id: 'PMID:2',
  });
  await db.close();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: BIN,
    cwd: repoRoot,
    // Strict (KB_STRICT=1): vocabulary violations are refused; the default is in test/upstream-examples.test.ts.
    env: { ...(process.env as Record<string, string>), KB_DB_PATH: kb.path, KB_STRICT: '1' },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (d) => (stderr += String(d)));
  client = new Client({ name: 'kb-mcp-test', version: '1.0.0' });
  await client.connect(transport);
});

after(async () => {
  await client?.close();
  kb.cleanup();
});

test('lists a tool per operation of the table, each with input and output schemas, a description and annotations', async () => {
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name).sort();
  assert.deepEqual(names, OPERATIONS.map((op) => op.name).sort());
  // The 15 tools of before keep their names.
  for (const name of [
    'add_inquiry',
    'confidence_alerts',
    'find_bridges',
    'find_paths',
    'get_claims',
    'get_entity',
    'ingest_claim',
    'ingest_text',
    'knowledge_health',
    'open_inquiries',
    'quality_report',
    'query_entity',
    'retract_source',
    'search_entities',
    'trace_downstream',
  ])
    assert.ok(names.includes(name), name);
  for (const t of tools) {
    assert.equal(t.inputSchema.type, 'object', t.name);
    assert.equal(t.outputSchema?.type, 'object', t.name);
    assert.ok((t.description ?? '').length > 40, `${t.name} has an actionable description`);
    assert.equal(typeof t.annotations?.readOnlyHint, 'boolean', t.name);
    assert.equal(typeof t.annotations?.destructiveHint, 'boolean', t.name);
  }
  const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
  assert.equal(byName.retract_source!.annotations!.destructiveHint, true);
  assert.equal(byName.query_entity!.annotations!.readOnlyHint, true);
  assert.equal(byName.ingest_claim!.annotations!.readOnlyHint, false);
  // source_type and source_id may come flat or inside provenance (test/upstream-examples.test.ts).
  assert.deepEqual(byName.ingest_claim!.inputSchema.required, ['subject', 'predicate', 'object']);
});

test('ingest_claim stores a claim that looks like the library claim; a repeat is a duplicate', async () => {
  const args = {
    subject: ['TP53', 'gene'],
    predicate: ['associated_with', 'association'],
    object: ['breast cancer', 'disease'],
    source_type: 'literature',
    source_id: 'PMID:9',
    confidence: 0.8,
    payload: { quote: 'TP53 ...' },
  };
  const r = await ok('ingest_claim', args);
  assert.equal(r.duplicate, false);
  assert.match(r.claim.claim_id, /^clm_/);
  assert.deepEqual(r.claim.subject, ['TP53', 'gene']);
  assert.equal(r.claim.subject_id, 'gene:tp53');
  assert.deepEqual(r.claim.provenance, { source_type: 'literature', source_id: 'PMID:9' });
  assert.equal(r.claim.confidence, 0.8);
  assert.deepEqual(r.claim.payload, { quote: 'TP53 ...' });
  assert.equal(r.claim.status, 'active');
  const again = await ok('ingest_claim', args);
  assert.equal(again.duplicate, true);
  assert.equal(again.claim.claim_id, r.claim.claim_id);
});

test('bad arguments give a tool error naming the field, and the server keeps serving', async () => {
  await fails(
    'ingest_claim',
    {
      subject: ['TP53'],
      predicate: ['associated_with', 'association'],
      object: ['x', 'disease'],
      source_type: 'l',
      source_id: 's',
    },
    'invalid_parameters',
    'subject',
  );
  await fails(
    'ingest_claim',
    {
      subject: ['TP53', 'gene'],
      predicate: ['associated_with', 'association'],
      object: ['x', 'disease'],
      source_type: 'l',
    },
    'missing_field',
    'source_id',
  );
  await fails(
    'ingest_claim',
    {
      subject: ['TP53', 'gene'],
      predicate: ['associated_with', 'association'],
      object: ['x', 'disease'],
      source_type: 'l',
      source_id: 's',
      confidence: 2,
    },
    'invalid_parameters',
    'confidence',
  );
  // A library rule (predicate constraints) comes back with the library's code and field.
  await fails(
    'ingest_claim',
    {
      subject: ['aspirin', 'drug'],
      predicate: ['treats', 'association'],
      object: ['pain', 'phenotype'],
      source_type: 'l',
      source_id: 's',
    },
    'predicate_class',
    'predicate[1]',
  );
  await fails('query_entity', { entity: 'BRCA1', depth: 99 }, 'invalid_parameters', 'depth');
  await fails('query_entity', { entity: 'no such gene' }, 'not_found');
  await fails('query_entity', { entity: 'BRCA1', as_of: 'yesterday-ish' }, 'invalid_timestamp', 'as_of');
  await fails('get_entity', { entity: 'nope' }, 'not_found');
  await fails('get_claims', { entity: 'BRCA1', bogus: 1 }, 'invalid_parameters', 'bogus');
  await fails('trace_downstream', { claim_id: 'clm_missing' }, 'not_found');
  await fails('retract_source', { source_id: 'never-seen', reason: 'x' }, 'not_found');
  const unknown = await client.callTool({ name: 'no_such_tool', arguments: {} }).then(
    (r) => r as ToolResult,
    (e: Error) => e,
  );
  assert.ok(unknown instanceof Error || unknown.isError, 'unknown tool is an error');
  // Still serving.
  const e = await ok('get_entity', { entity: 'brca1' });
  assert.equal(e.id, 'gene:brca1');
});

test('query_entity returns the frame, and as_of answers as of a past moment', async () => {
  const before = new Date(Date.now() - 1).toISOString();
  const f = await ok('query_entity', { entity: 'BRCA1', depth: 2 });
  assert.equal(f.focal_entity.id, 'gene:brca1');
  const targets = f.direct_relationships.map((r: any) => r.target.id).sort();
  assert.ok(targets.includes('disease:breast cancer') && targets.includes('protein:parp1'), 'mcp.test.ts:121');
  const bc = f.direct_relationships.find((r: any) => r.target.id === 'disease:breast cancer');
  assert.equal(bc.source_count, 2);
  assert.ok(
    f.entities.some((e: any) => e.id === 'drug:olaparib' && e.distance === 2),
    'mcp.test.ts:124',
  );
  assert.match(f.narrative, /BRCA1/);
  await ok('ingest_claim', {
    subject: ['BRCA1', 'gene'],
    predicate: ['associated_with', 'association'],
    object: ['ovarian cancer', 'disease'],
    source_type: 'literature',
    source_id: 'PMID:10',
  });
  const now = await ok('query_entity', { entity: 'BRCA1', depth: 1 });
  const past = await ok('query_entity', { entity: 'BRCA1', depth: 1, as_of: before });
  assert.ok(
    now.direct_relationships.some((r: any) => r.target.id === 'disease:ovarian cancer'),
    'mcp.test.ts:129',
  );
  assert.ok(!past.direct_relationships.some((r: any) => r.target.id === 'disease:ovarian cancer'), 'mcp.test.ts:130');
});

test('search_entities finds by meaning: a drug class names no entity yet finds its members', async () => {
  const r = await ok('search_entities', { query: 'PARP inhibitor' });
  const olaparib = r.results.find((h: any) => h.id === 'drug:olaparib');
  assert.ok(olaparib, JSON.stringify(r.results.map((h: any) => h.id)));
  const typed = await ok('search_entities', { query: 'PARP inhibitor', entity_type: 'drug' });
  assert.ok(typed.results.every((h: any) => h.type === 'drug'));
});

test('search_entities ranks exact name first, then prefix/substring, and filters by type', async () => {
  const r = await ok('search_entities', { query: 'brca1' });
  assert.equal(r.results[0].id, 'gene:brca1');
  assert.equal(r.results[0].match, 'exact');
  const p = await ok('search_entities', { query: 'cancer' });
  const byName = p.results.filter((h: any) => h.match !== 'semantic');
  assert.ok(byName.length >= 1 && byName.every((h: any) => h.type === 'disease'), 'mcp.test.ts:138');
  // Meaning after names: entities related to cancers follow every name match.
  const firstSemantic = p.results.findIndex((h: any) => h.match === 'semantic');
  assert.ok(firstSemantic < 0 || firstSemantic >= byName.length);
  assert.equal(p.results[0].id, 'disease:breast cancer', 'more claims ranks first among equal matches');
  const t = await ok('search_entities', { entity_type: 'drug' });
  assert.deepEqual(
    t.results.map((h: any) => h.id),
    ['drug:olaparib'],
  );
  const byType = await ok('search_entities', { query: 'protein' });
  assert.ok(
    byType.results.some((h: any) => h.id === 'protein:parp1' && h.match === 'type'),
    'mcp.test.ts:143',
  );
});

test('get_entity, get_claims (predicate filter, paging), find_paths', async () => {
  const e = await ok('get_entity', { entity: 'BRCA1' });
  assert.equal(e.source_count >= 3, true);
  const c = await ok('get_claims', { entity: 'BRCA1', predicate_type: 'associated_with' });
  assert.ok(
    c.claims.length >= 2 && c.claims.every((x: any) => x.predicate[0] === 'associated_with'),
    'mcp.test.ts:150',
  );
  assert.ok(
    c.claims.every((x: any) => x.provenance.source_id && typeof x.confidence === 'number' && x.status === 'active'),
    'mcp.test.ts:151',
  );
  const page = await ok('get_claims', { entity: 'BRCA1', limit: 1, offset: 1 });
  assert.equal(page.claims.length, 1);
  assert.equal(page.total, (await ok('get_claims', { entity: 'BRCA1' })).claims.length);
  const paths = await ok('find_paths', { from: 'olaparib', to: 'BRCA1', max_depth: 3 });
  assert.ok(paths.paths.length >= 1, 'mcp.test.ts:156');
  assert.equal(paths.paths[0].entities[0], 'drug:olaparib');
  assert.equal(paths.paths[0].entities.at(-1), 'gene:brca1');
  assert.ok(paths.paths[0].score > 0 && paths.paths[0].score <= 1, 'mcp.test.ts:159');
});

test('cypher_query: profile and explain answer the plan tree, as REST does', async () => {
  const cypher = 'MATCH (d:drug)-[:TREATS]->(x) RETURN d.name AS drug';
  const p = await ok('cypher_query', { cypher, profile: true });
  assert.deepEqual(p.rows, [['olaparib']]);
  assert.equal(p.plan.operator, 'ProduceResults');
  assert.equal(p.plan.rows, 1);
  assert.ok(p.plan.children.length > 0 && typeof p.plan.time_ms === 'number', JSON.stringify(p.plan));
  const e = await ok('cypher_query', { cypher: `EXPLAIN ${cypher}` });
  assert.deepEqual(e.rows, []);
  assert.equal(e.plan.rows, undefined);
  assert.equal(typeof e.plan.estimated_rows, 'number');
  assert.equal((await ok('cypher_query', { cypher })).plan, undefined);
});

test('knowledge_health, quality_report, find_bridges, confidence_alerts', async () => {
  const h = await ok('knowledge_health');
  assert.ok(h.score >= 0 && h.score <= 100, 'mcp.test.ts:164');
  assert.deepEqual(Object.keys(h.metrics).sort(), [
    'confidence_trend',
    'corroboration_ratio',
    'freshness',
    'multi_source_ratio',
    'source_diversity',
  ]);
  const q = await ok('quality_report');
  assert.ok(q.claim_count >= 5 && q.single_source_entities.count >= 1, 'mcp.test.ts:167');
  const b = await ok('find_bridges', { top_k: 5 });
  assert.ok(Array.isArray(b.bridges), 'mcp.test.ts:169');
  for (const x of b.bridges) assert.ok(x.score > 0 && x.reason);
  const a = await ok('confidence_alerts', { low_confidence: 0.99 });
  assert.ok(
    a.alerts.some((x: any) => x.alerts.includes('low_confidence')),
    'mcp.test.ts:172',
  );
});

test('inquiries: add_inquiry, open_inquiries, answered by a later claim', async () => {
  const q = await ok('add_inquiry', { question: 'Does olaparib act on TP53?', subject: 'olaparib', object: 'TP53' });
  assert.equal(q.status, 'open');
  let open = await ok('open_inquiries');
  assert.ok(
    open.inquiries.some((i: any) => i.inquiry_id === q.inquiry_id),
    'mcp.test.ts:179',
  );
  await ok('ingest_claim', {
    subject: ['olaparib', 'drug'],
    predicate: ['targets', 'pharmacology'],
    object: ['TP53', 'gene'],
    source_type: 'prediction',
    source_id: 'model-1',
  });
  open = await ok('open_inquiries');
  assert.ok(!open.inquiries.some((i: any) => i.inquiry_id === q.inquiry_id), 'mcp.test.ts:182');
  await fails('add_inquiry', { question: '', subject: 'a', object: 'b' }, 'invalid_parameters', 'question');
});

test('trace_downstream and retract_source with cascade', async () => {
  const parent = await ok('ingest_claim', {
    subject: ['EGFR', 'gene'],
    predicate: ['associated_with', 'association'],
    object: ['lung cancer', 'disease'],
    source_type: 'literature',
    source_id: 'PMID:retract-me',
  });
  const child = await ok('ingest_claim', {
    subject: ['erlotinib', 'drug'],
    predicate: ['treats', 'pharmacology'],
    object: ['lung cancer', 'disease'],
    source_type: 'inference',
    source_id: 'agent-run-1',
    derived_from: [parent.claim.claim_id],
  });
  const t = await ok('trace_downstream', { claim_id: parent.claim.claim_id });
  assert.deepEqual(
    t.downstream.map((c: any) => c.claim_id),
    [child.claim.claim_id],
  );
  assert.equal(t.downstream[0].depth, 1);
  const r = await ok('retract_source', { source_id: 'PMID:retract-me', reason: 'paper withdrawn', cascade: true });
  assert.deepEqual(r.claim_ids, [parent.claim.claim_id]);
  assert.deepEqual(r.degraded_claim_ids, [child.claim.claim_id]);
  assert.equal(r.cascade, true);
  const all = await ok('get_claims', { entity: 'drug:erlotinib', status: 'all' });
  assert.equal(all.claims[0].status, 'degraded');
  await fails('get_entity', { entity: 'EGFR' }, 'not_found');
});

test('ingest_text calls the library', async () => {
  const r = await call('ingest_text', { text: 'Olaparib inhibits PARP1.', source_id: 'chat-1' });
  assert.ok(!r.isError, r.content[0]?.text);
  assert.equal(typeof r.structuredContent, 'object');
  await fails('ingest_text', { text: '', source_id: 'x' }, 'invalid_parameters', 'text');
});

test('resources kb://entities and kb://schema', async () => {
  const { resources } = await client.listResources();
  assert.deepEqual(resources.map((r) => r.uri).sort(), ['kb://entities', 'kb://schema']);
  const ents = JSON.parse(((await client.readResource({ uri: 'kb://entities' })).contents[0] as { text: string }).text);
  assert.ok(
    ents.entities.some((e: any) => e.id === 'gene:brca1'),
    'mcp.test.ts:220',
  );
  assert.equal(ents.total, ents.entities.length);
  const schema = JSON.parse(((await client.readResource({ uri: 'kb://schema' })).contents[0] as { text: string }).text);
  assert.ok(
    schema.entity_types.some((t: any) => t.type === 'gene'),
    'mcp.test.ts:223',
  );
  assert.ok(schema.registered.vocabularies.includes('bio'), 'mcp.test.ts:224');
  await assert.rejects(client.readResource({ uri: 'kb://nope' }));
  assert.ok(!/Error:|at .*\.ts:\d+/.test(stderr.replace(/kb-mcp: serving.*\n/, '')), `no crash output: ${stderr}`);
});

test('missing or unopenable KB_DB_PATH: message on stderr, non-zero exit, nothing on stdout', () => {
  const env = { ...process.env };
  delete env.KB_DB_PATH;
  const r = spawnSync(process.execPath, BIN, { cwd: repoRoot, env, encoding: 'utf8', timeout: 120_000, input: '' });
  assert.notEqual(r.status, 0);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /KB_DB_PATH/);
  const r2 = spawnSync(process.execPath, BIN, {
    cwd: repoRoot,
    env: { ...env, KB_DB_PATH: join(kb.dir, 'no', 'such', 'dir', 'x.kb') },
    encoding: 'utf8',
    timeout: 120_000,
    input: '',
  });
  assert.notEqual(r2.status, 0);
  assert.equal(r2.stdout, '');
  assert.match(r2.stderr, /does not exist/);
  const r3 = spawnSync(process.execPath, BIN, {
    cwd: repoRoot,
    env: { ...env, KB_DB_PATH: kb.dir },
    encoding: 'utf8',
    timeout: 120_000,
    input: '',
  });
  assert.notEqual(r3.status, 0);
  assert.match(r3.stderr, /directory/);
});

test('stdout carries only JSON-RPC messages', async () => {
  const child = spawn(process.execPath, BIN, { cwd: repoRoot, env: { ...process.env, KB_DB_PATH: kb.path } });
  let out = '';
  child.stdout.on('data', (d) => (out += String(d)));
  const send = (m: object) => child.stdin.write(`${JSON.stringify(m)}\n`);
  send({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_entity', arguments: { entity: 42 } } });
  send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get_entity', arguments: { entity: 'BRCA1' } } });
  // Wait for the three answers with a generous bound (a busy machine starts the server slowly).
  for (const end = Date.now() + 60_000; out.split('\n').filter(Boolean).length < 3 && Date.now() < end; )
    await new Promise((r) => setTimeout(r, 50));
  child.stdin.end();
  await new Promise((r) => child.on('exit', r));
  const lines = out.split('\n').filter(Boolean);
  assert.equal(lines.length, 3, out);
  const msgs = lines.map((l) => JSON.parse(l));
  assert.ok(
    msgs.every((m) => m.jsonrpc === '2.0'),
    'mcp.test.ts:260',
  );
  assert.equal(msgs[1].result.isError, true);
  assert.equal(msgs[2].result.structuredContent.id, 'gene:brca1');
});

/** Spawns the bin, writes raw lines, and collects stdout lines until `count` replies have arrived. */
async function rawSession(lines: (string | string[])[], count: number, args: string[] = []) {
  const child = spawn(process.execPath, [...BIN, ...args], {
    cwd: repoRoot,
    env: { ...process.env, KB_DB_PATH: kb.path },
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => {
    out += String(d);
  });
  child.stderr.on('data', (d) => {
    err += String(d);
  });
  const exit = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  const init = {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  };
  child.stdin.write(
    `${JSON.stringify(init)}\n${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`,
  );
  // A line given as parts is written in several chunks (the transport must join or discard across chunks).
  for (const l of lines) for (const part of Array.isArray(l) ? l : [l]) child.stdin.write(part);
  for (let i = 0; i < 400 && out.split('\n').filter(Boolean).length < count + 1; i++)
    await new Promise((r) => setTimeout(r, 50));
  child.stdin.end();
  const code = await exit;
  const msgs = out
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  // Refusals are written as lines are read, so they may overtake the (asynchronous) initialize result.
  const i = msgs.findIndex((m) => m.id === 0 && 'result' in m);
  assert.ok(i >= 0, 'initialize is answered');
  msgs.splice(i, 1);
  return { replies: msgs, stderr: err, code };
}

test('malformed JSON-RPC gets -32700 / -32600 replies (id null unless the id is readable); the server keeps serving', async () => {
  const bad = [
    'not json',
    '{"jsonrpc":"2.0","id":1,"method":"tools/list"',
    '{}',
    'null',
    '42',
    '[{"jsonrpc":"2.0","id":2,"method":"tools/list"}]',
    '[]',
    '{"jsonrpc":"2.0","id":3}',
    '{"jsonrpc":"1.0","id":4,"method":"tools/list"}',
    '{"id":5,"method":"tools/list"}',
    '{"jsonrpc":"2.0","id":6,"method":7}',
  ];
  const expected: [number, number | null][] = [
    [-32700, null],
    [-32700, null],
    [-32600, null],
    [-32600, null],
    [-32600, null],
    [-32600, null],
    [-32600, null],
    [-32600, 3],
    [-32600, 4],
    [-32600, 5],
    [-32600, 6],
  ];
  const { replies, code, stderr } = await rawSession(
    [...bad.map((l) => `${l}\n`), '\n', `${JSON.stringify({ jsonrpc: '2.0', id: 99, method: 'tools/list' })}\r\n`],
    bad.length + 1,
  );
  assert.equal(replies.length, bad.length + 1, JSON.stringify(replies));
  bad.forEach((line, i) => {
    const r = replies[i];
    assert.equal(r.jsonrpc, '2.0', line);
    assert.equal(r.error?.code, expected[i]![0], `${line}: ${JSON.stringify(r)}`);
    assert.equal(r.id, expected[i]![1], line);
  });
  const last = replies[bad.length];
  assert.equal(last.id, 99);
  assert.equal(last.result.tools.length, OPERATIONS.length);
  assert.equal(code, 0);
  assert.match(stderr, /refused a message: Parse error/);
  assert.match(stderr, /stopping \(stdin closed\)/, 'the exit is said on stderr');
});

test('a message over the size limit is refused with an error reply, and the next request is served', async () => {
  const limit = 64 * 1024;
  const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { pad: 'x'.repeat(3 * limit) } });
  const parts = [big.slice(0, limit / 2), big.slice(limit / 2, 2 * limit), `${big.slice(2 * limit)}\n`];
  const ok = `${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })}\n`;
  const fits = `${JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: { pad: 'y'.repeat(limit - 200) } } })}\n`;
  const { replies, code } = await rawSession([parts, ok, fits], 3, ['--max-message-bytes', String(limit)]);
  assert.equal(replies.length, 3, JSON.stringify(replies).slice(0, 500));
  assert.deepEqual(replies[0], {
    jsonrpc: '2.0',
    id: null,
    error: {
      code: -32600,
      message: `Invalid Request: message larger than ${limit} bytes (the limit of this server)`,
      data: { limit_bytes: limit },
    },
  });
  assert.equal(replies[1].id, 2);
  assert.equal(replies[1].result.tools.length, OPERATIONS.length);
  assert.equal(replies[2].id, 3, 'a message just under the limit is served');
  assert.equal(code, 0);
});

test('kb-mcp refuses a bad --max-message-bytes at startup, on stderr', () => {
  const r = spawnSync(process.execPath, [...BIN, '--max-message-bytes', '12abc'], {
    cwd: repoRoot,
    env: { ...process.env, KB_DB_PATH: kb.path },
    encoding: 'utf8',
    timeout: 30_000,
    input: '',
  });
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /--max-message-bytes/);
  assert.equal(r.stdout, '');
});

test('the MCP inspector CLI lists the tools and calls one', () => {
  const inspector = join(repoRoot, 'node_modules', '.bin', 'mcp-inspector');
  const run = (...extra: string[]) =>
    spawnSync(inspector, ['--cli', '-e', `KB_DB_PATH=${kb.path}`, process.execPath, ...BIN, ...extra], {
      cwd: repoRoot,
      encoding: 'utf8',
      timeout: 120_000,
    });
  const list = run('--method', 'tools/list');
  assert.equal(list.status, 0, list.stderr);
  assert.equal(JSON.parse(list.stdout).tools.length, OPERATIONS.length);
  const got = run('--method', 'tools/call', '--tool-name', 'search_entities', '--tool-arg', 'query=olaparib');
  assert.equal(got.status, 0, got.stderr);
  assert.equal(JSON.parse(got.stdout).structuredContent.results[0].id, 'drug:olaparib');
});

test('kb-mcp over a PostgreSQL base (KB_DB_PATH=postgres://...)', { skip: pgProbe.skip }, async () => {
  const tmp = await createTempDatabase('kb_mcp');
  const pgClient = new Client({ name: 'kb-mcp-pg-test', version: '1.0.0' });
  try {
    await pgClient.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: BIN,
        cwd: repoRoot,
        env: { ...(process.env as Record<string, string>), KB_DB_PATH: tmp.url },
        stderr: 'ignore',
      }),
    );
    const r = (await pgClient.callTool({
      name: 'ingest_claim',
      arguments: {
        subject: ['BRCA1', 'gene'],
        predicate: ['associated_with', 'association'],
        object: ['breast cancer', 'disease'],
        source_type: 'literature',
        source_id: 'PMID:1',
      },
    })) as ToolResult;
    assert.ok(!r.isError, r.content[0]?.text);
    const f = (await pgClient.callTool({
      name: 'query_entity',
      arguments: { entity: 'brca1', depth: 1 },
    })) as ToolResult;
    assert.equal(f.structuredContent.direct_relationships[0].claim_ids[0], r.structuredContent.claim.claim_id);
  } finally {
    await pgClient.close();
    await tmp.drop();
  }
});

test('a failure inside a tool (not a KB error) is an isError result with the message; the server keeps serving', async () => {
  const { InMemoryTransport } = await import('@modelcontextprotocol/sdk/inMemory.js');
  const { createMcpServer } = await import('../src/mcp/server.js');
  const db = await quickstart(join(kb.dir, 'inproc.kb'));
  const broken = Object.create(db) as typeof db;
  (broken as unknown as { knowledgeHealth: () => never }).knowledgeHealth = () => {
    throw new Error('index exploded');
  };
  const logged: string[] = [];
  const server = createMcpServer(broken, { log: (m) => logged.push(m) });
  const [a, b] = InMemoryTransport.createLinkedPair();
  const c = new Client({ name: 'inproc', version: '1' });
  await Promise.all([server.connect(a), c.connect(b)]);
  try {
    const r = (await c.callTool({ name: 'knowledge_health', arguments: {} })) as ToolResult;
    assert.equal(r.isError, true);
    const body = JSON.parse(r.content[0]!.text!);
    assert.equal(body.error.code, 'internal_error');
    assert.match(body.error.message, /index exploded/);
    assert.ok(
      logged.some((l) => l.includes('knowledge_health') && l.includes('index exploded')),
      'logged (to stderr in the bin)',
    );
    const q = (await c.callTool({ name: 'quality_report', arguments: {} })) as ToolResult;
    assert.ok(!q.isError, 'keeps serving');
  } finally {
    await c.close();
    await server.close();
    await db.close();
  }
});
