// kb-console REST API against a real temporary SQLite base: every route, bad input, the error shape,
// auth, OpenAPI, and the bin itself.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { Writable } from 'node:stream';
import { repoRoot } from '@evident/testkit';
import type { FastifyInstance } from 'fastify';
import { fieldToPointer } from '@evident/contract';
import { quickstart, type KbDB } from '@evident/kb';
import { buildConsole } from '../src/console/server.js';
import { tempKb } from './helpers.js';

const kb = tempKb('console.kb');
let db: KbDB;
let app: FastifyInstance;

const CLAIM = {
  subject: ['BRCA1', 'gene'],
  predicate: ['associated_with', 'association'],
  object: ['breast cancer', 'disease'],
  source_type: 'literature',
  source_id: 'PMID:1',
};

async function req(method: string, url: string, body?: unknown, headers: Record<string, string> = {}, server = app) {
  const r = await server.inject({
    method: method as 'GET',
    url,
    ...(body === undefined ? {} : { payload: body as object }),
    headers,
  });
  const json: any = r.headers['content-type']?.toString().includes('json') ? r.json() : undefined;
  return { status: r.statusCode, body: json, raw: r.body, headers: r.headers };
}
function isError(r: { status: number; body: any }, status: number, code?: string, field?: string) {
  assert.equal(r.status, status, JSON.stringify(r.body));
  assert.deepEqual(Object.keys(r.body), ['error'], 'one error shape');
  assert.equal(typeof r.body.error.code, 'string', 'error.code');
  assert.equal(typeof r.body.error.message, 'string', 'error.message');
  if (code) assert.equal(r.body.error.code, code, JSON.stringify(r.body));
  if (r.body.error.details !== undefined) {
    assert.ok(
      r.body.error.details.every((d: any) => typeof d.path === 'string' && typeof d.message === 'string'),
      'details: [{ path, message }]',
    );
  }
  if (field) assert.equal(r.body.error.details?.[0]?.path, fieldToPointer(field), JSON.stringify(r.body));
}

before(async () => {
  // Strict, as `kb-console --strict` opens it: vocabulary violations are refused (test/upstream-examples.test.ts
  // covers the default, which stores them with warnings).
  db = await quickstart(kb.path, { strict: true });
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
  app = await buildConsole(db);
});

after(async () => {
  await app?.close();
  await db?.close();
  kb.cleanup();
});

test('POST /claims: 201 with the claim exactly as the library returns it; a repeat is 200 with the stored claim', async () => {
  const r = await req('POST', '/api/v1/claims', {
    ...CLAIM,
    confidence: 0.7,
    payload: { quote: 'BRCA1 ...' },
    provenance: { pmid: '1' },
  });
  assert.equal(r.status, 201, r.raw);
  assert.deepEqual(r.body as unknown, await db.getClaim(r.body.claim_id));
  assert.deepEqual(r.body.provenance, { pmid: '1', source_type: 'literature', source_id: 'PMID:1' });
  const again = await req('POST', '/api/v1/claims', CLAIM);
  assert.equal(again.status, 200);
  assert.equal(again.body.claim_id, r.body.claim_id);
  const one = await req('GET', `/api/v1/claims/${r.body.claim_id}`);
  assert.deepEqual(one.body, r.body);
  isError(await req('GET', '/api/v1/claims/clm_nope'), 404, 'not_found');
});

test('POST /claims with bad input: 400 naming the field; nothing written; server keeps serving', async () => {
  const before = (await db.stats()).total_claims;
  isError(await req('POST', '/api/v1/claims', { ...CLAIM, source_id: undefined }), 400, 'missing_field', 'source_id');
  isError(await req('POST', '/api/v1/claims', { ...CLAIM, subject: ['BRCA1'] }), 400, 'invalid_parameters', 'subject');
  isError(
    await req('POST', '/api/v1/claims', { ...CLAIM, subject: ['BRCA1', ''] }),
    400,
    'invalid_parameters',
    'subject[1]',
  );
  isError(await req('POST', '/api/v1/claims', { ...CLAIM, confidence: 1.5 }), 400, 'invalid_parameters', 'confidence');
  isError(await req('POST', '/api/v1/claims', { ...CLAIM, bogus: true }), 400, 'invalid_parameters', 'bogus');
  isError(
    await req('POST', '/api/v1/claims', {
      ...CLAIM,
      predicate: ['treats', 'association'],
      subject: ['aspirin', 'drug'],
    }),
    400,
    'predicate_class',
    'predicate[1]',
  );
  isError(
    await req('POST', '/api/v1/claims', { ...CLAIM, source_id: 'x', derived_from: ['clm_missing'] }),
    400,
    'unknown_reference',
    'derived_from[0]',
  );
  const badJson = await app.inject({
    method: 'POST',
    url: '/api/v1/claims',
    payload: '{"subject": [',
    headers: { 'content-type': 'application/json' },
  });
  isError({ status: badJson.statusCode, body: badJson.json() }, 400);
  assert.equal((await db.stats()).total_claims, before, 'nothing written');
  assert.equal((await req('GET', '/api/v1/health')).status, 200);
});

test('POST /claims/batch: counts; one bad claim fails the batch naming its index', async () => {
  const claims = [
    { ...CLAIM, source_id: 'PMID:2' },
    { ...CLAIM, object: ['ovarian cancer', 'disease'], source_id: 'PMID:2' },
    { ...CLAIM, source_id: 'PMID:2' },
  ];
  const r = await req('POST', '/api/v1/claims/batch', { claims });
  assert.equal(r.status, 200, r.raw);
  assert.equal(r.body.ingested, 2);
  assert.equal(r.body.duplicates, 1);
  assert.equal(r.body.claim_ids.length, 3);
  const before = (await db.stats()).total_claims;
  const bad = await req('POST', '/api/v1/claims/batch', {
    claims: [
      { ...CLAIM, source_id: 'PMID:3' },
      { ...CLAIM, subject: ['aspirin', 'drug'], predicate: ['treats', 'association'], source_id: 'PMID:3' },
    ],
  });
  isError(bad, 400, 'predicate_class', 'claims[1].predicate[1]');
  assert.equal(bad.body.error.details[0].path.split('/')[2], '1', 'the index of the failing claim');
  isError(
    await req('POST', '/api/v1/claims/batch', { claims: [CLAIM, { ...CLAIM, source_type: '' }] }),
    400,
    'invalid_parameters',
    'claims[1].source_type',
  );
  isError(await req('POST', '/api/v1/claims/batch', { claims: [] }), 400, 'invalid_parameters', 'claims');
  assert.equal((await db.stats()).total_claims, before, 'a failed batch writes nothing');
});

test('POST /claims/text: the library ingestText', async () => {
  const r = await req('POST', '/api/v1/claims/text', { text: 'Olaparib inhibits PARP1.', source_id: 'chat-1' });
  assert.equal(r.status, 200, r.raw);
  isError(await req('POST', '/api/v1/claims/text', { source_id: 'x' }), 400, 'invalid_parameters', 'text');
});

test('GET /entities: search ranking, type filter, min_claims, offset paging, bad parameters', async () => {
  const r = await req('GET', '/api/v1/entities?query=brca1');
  assert.equal(r.body.results[0].id, 'gene:brca1');
  assert.equal(r.body.results[0].match, 'exact');
  const t = await req('GET', '/api/v1/entities?entity_type=disease');
  assert.ok(t.body.results.length >= 1 && t.body.results.every((e: any) => e.type === 'disease'), 'type filter');
  const all = await req('GET', '/api/v1/entities?limit=1000');
  const seen: string[] = [];
  for (let offset = 0; offset < all.body.total; offset += 2) {
    const page: any = await req('GET', `/api/v1/entities?limit=2&offset=${offset}`);
    assert.ok(page.body.results.length <= 2, 'page size');
    assert.equal(page.body.total, all.body.total, 'total counts every hit');
    seen.push(...page.body.results.map((e: any) => e.id));
  }
  assert.deepEqual(
    seen,
    all.body.results.map((e: any) => e.id),
    'pages cover the list once, in order',
  );
  const many = await req('GET', '/api/v1/entities?min_claims=2');
  assert.ok(
    many.body.results.every((e: any) => e.claim_count >= 2),
    'min_claims',
  );
  isError(await req('GET', '/api/v1/entities?limit=0'), 400, 'invalid_parameters', 'limit');
  isError(await req('GET', '/api/v1/entities?limit=abc'), 400, 'invalid_parameters', 'limit');
  isError(await req('GET', '/api/v1/entities?offset=-1'), 400, 'invalid_parameters', 'offset');
  // The REST-only names of before are refused, not ignored.
  isError(await req('GET', '/api/v1/entities?cursor=bm9wZQ'), 400, 'invalid_parameters', 'cursor');
  isError(await req('GET', '/api/v1/entities?q=brca1'), 400, 'invalid_parameters', 'q');
  isError(await req('GET', '/api/v1/entities?nope=1'), 400, 'invalid_parameters', 'nope');
});

test('GET /entities/{entity}, /claims, /context: summary, provenance, frame; 404 for unknown', async () => {
  const e = await req('GET', `/api/v1/entities/${encodeURIComponent('disease:breast cancer')}`);
  assert.equal(e.status, 200);
  assert.deepEqual(e.body, await db.getEntity('disease:breast cancer'));
  assert.equal((await req('GET', '/api/v1/entities/BRCA1')).body.id, 'gene:brca1', 'names resolve too');
  isError(await req('GET', '/api/v1/entities/no-such-thing'), 404, 'not_found');
  const c = await req('GET', '/api/v1/entities/gene:brca1/claims?predicate_type=associated_with');
  assert.ok(
    c.body.claims.length >= 2 && c.body.claims.every((x: any) => x.predicate[0] === 'associated_with'),
    'predicate filter',
  );
  assert.deepEqual(
    c.body.claims,
    (await db.claimsFor('gene:brca1', { predicate_type: 'associated_with' })).slice(0, 100),
  );
  const p1 = await req('GET', '/api/v1/entities/gene:brca1/claims?limit=1');
  assert.equal(p1.body.claims.length, 1);
  const p2 = await req('GET', '/api/v1/entities/gene:brca1/claims?limit=1&offset=1');
  assert.notEqual(p2.body.claims[0].claim_id, p1.body.claims[0].claim_id);
  assert.equal(p2.body.total, p1.body.total);
  isError(await req('GET', '/api/v1/entities/nobody/claims'), 404, 'not_found');
  const f = await req('GET', '/api/v1/entities/gene:brca1/context?depth=2');
  assert.deepEqual(f.body, await db.query('gene:brca1', { depth: 2 }));
  const past = await req('GET', '/api/v1/entities/gene:brca1/context?as_of=2000-01-01T00:00:00Z');
  isError(past, 404, 'not_found');
  isError(await req('GET', '/api/v1/entities/gene:brca1/context?depth=9'), 400, 'invalid_parameters', 'depth');
  isError(await req('GET', '/api/v1/entities/gene:brca1/context?as_of=not-a-date'), 400, 'invalid_timestamp', 'as_of');
});

test('GET /paths/{a}/{b}: scored paths; 404 for an unknown entity; 400 for a bad max_depth', async () => {
  const r = await req('GET', '/api/v1/paths/olaparib/BRCA1?max_depth=3&top_k=2');
  assert.equal(r.status, 200, r.raw);
  assert.equal(r.body.from, 'drug:olaparib');
  assert.ok(r.body.paths.length >= 1 && r.body.paths[0].edges.length === 2, 'two-hop path');
  assert.deepEqual(r.body.paths, await db.findPaths('olaparib', 'BRCA1', { max_depth: 3, top_k: 2 }));
  isError(await req('GET', '/api/v1/paths/olaparib/nobody'), 404, 'not_found');
  isError(await req('GET', '/api/v1/paths/olaparib/BRCA1?max_depth=99'), 400, 'invalid_parameters', 'max_depth');
});

test('reports and insights: /schema /stats /health /quality /insights/bridges /insights/gaps', async () => {
  const schema = await req('GET', '/api/v1/schema');
  assert.ok(
    schema.body.entity_types.some((t: any) => t.type === 'gene'),
    'schema types',
  );
  const stats = await req('GET', '/api/v1/stats');
  assert.deepEqual(stats.body, JSON.parse(JSON.stringify(await db.stats())));
  const health = await req('GET', '/api/v1/health');
  const lib = await db.knowledgeHealth();
  for (const k of ['multi_source_ratio', 'corroboration_ratio', 'source_diversity', 'confidence_trend'] as const)
    assert.equal(health.body.metrics[k], lib.metrics[k], k);
  assert.ok(Math.abs(health.body.metrics.freshness - lib.metrics.freshness) < 1e-6, 'freshness (decays with time)');
  assert.ok(health.body.score >= 0 && health.body.score <= 100, 'score range');
  const q = await req('GET', '/api/v1/quality');
  assert.equal(q.body.claim_count, (await db.qualityReport()).claim_count);
  const b = await req('GET', '/api/v1/insights/bridges?top_k=3');
  assert.equal(b.status, 200);
  assert.ok(b.body.bridges.length <= 3, 'top_k');
  const g = await req('GET', '/api/v1/insights/gaps?low_confidence=0.99');
  assert.ok(
    g.body.alerts.some((a: any) => a.alerts.includes('low_confidence')),
    'alerts',
  );
  assert.deepEqual(Object.keys(g.body), ['alerts'], "confidence_alerts' shape, as over MCP");
  const missing = await req('GET', '/api/v1/insights/missing?limit=5');
  assert.deepEqual(missing.body, { gaps: JSON.parse(JSON.stringify(await db.findGaps(undefined, { limit: 5 }))) });
  isError(await req('GET', '/api/v1/insights/gaps?low_confidence=3'), 400, 'invalid_parameters', 'low_confidence');
});

test('POST /retract with cascade; downstream; 404 unknown source; 400 missing reason', async () => {
  const parent = await req('POST', '/api/v1/claims', {
    ...CLAIM,
    object: ['lung cancer', 'disease'],
    source_id: 'PMID:bad',
  });
  const child = await req('POST', '/api/v1/claims', {
    subject: ['erlotinib', 'drug'],
    predicate: ['treats', 'pharmacology'],
    object: ['lung cancer', 'disease'],
    source_type: 'inference',
    source_id: 'agent-1',
    derived_from: [parent.body.claim_id],
  });
  assert.equal(child.status, 201, child.raw);
  const d = await req('GET', `/api/v1/claims/${parent.body.claim_id}/downstream`);
  assert.deepEqual(
    d.body.downstream.map((c: any) => c.claim_id),
    [child.body.claim_id],
  );
  isError(await req('POST', '/api/v1/retract', { source_id: 'PMID:bad' }), 400, 'invalid_parameters', 'reason');
  isError(await req('POST', '/api/v1/retract', { source_id: 'never', reason: 'x' }), 404, 'not_found');
  const r = await req('POST', '/api/v1/retract', { source_id: 'PMID:bad', reason: 'withdrawn', cascade: true });
  assert.equal(r.status, 200, r.raw);
  assert.deepEqual(r.body.claim_ids, [parent.body.claim_id]);
  assert.deepEqual(r.body.degraded_claim_ids, [child.body.claim_id]);
  assert.equal((await req('GET', `/api/v1/claims/${child.body.claim_id}`)).body.status, 'degraded');
  const audit = await req('GET', `/api/v1/entities/${encodeURIComponent('drug:erlotinib')}/claims?status=all`);
  assert.equal(audit.body.claims[0].status, 'degraded');
});

test('unknown route 404, body too large 413, internal error 500 with request id and no stack; still serving', async () => {
  isError(await req('GET', '/api/v1/nope'), 404, 'not_found');
  const logs: string[] = [];
  const small = await buildConsole(db, {
    bodyLimit: 2048,
    logger: {
      level: 'error',
      stream: new Writable({
        write(chunk, _e, cb) {
          logs.push(String(chunk));
          cb();
        },
      }),
    },
  });
  isError(
    await req(
      'POST',
      '/api/v1/claims/batch',
      { claims: Array.from({ length: 50 }, (_, i) => ({ ...CLAIM, source_id: `s${i}` })) },
      {},
      small,
    ),
    413,
    'payload_too_large',
  );
  // A base whose stats() fails inside: the client sees a request id, the log has the details.
  const broken = Object.create(db) as KbDB;
  (broken as unknown as { stats: () => never }).stats = () => {
    throw new Error('disk on fire at /secret/path');
  };
  const b = await buildConsole(broken, {
    logger: {
      level: 'error',
      stream: new Writable({
        write(chunk, _e, cb) {
          logs.push(String(chunk));
          cb();
        },
      }),
    },
  });
  const r = await req('GET', '/api/v1/stats', undefined, {}, b);
  isError(r, 500, 'internal_error');
  const id = r.body.error.request_id;
  assert.match(r.body.error.message, new RegExp(id));
  assert.ok(!/secret|at .*\.ts|disk on fire/.test(r.raw), `no internals to the client: ${r.raw}`);
  assert.ok(
    logs.some((l) => l.includes(id) && l.includes('disk on fire')),
    'logged with the request id',
  );
  assert.equal((await req('GET', '/api/v1/health', undefined, {}, b)).status, 200, 'keeps serving');
  await small.close();
  await b.close();
});

test('KB_CONSOLE_TOKEN: bearer required on /api/v1, compared exactly; the page itself is public', async () => {
  const secured = await buildConsole(db, { token: 's3cret-token' });
  isError(await req('GET', '/api/v1/health', undefined, {}, secured), 401, 'unauthorized');
  isError(
    await req('GET', '/api/v1/health', undefined, { authorization: 'Bearer s3cret-tokem' }, secured),
    401,
    'unauthorized',
  );
  isError(
    await req('GET', '/api/v1/health', undefined, { authorization: 'Bearer s3cret-token-longer' }, secured),
    401,
    'unauthorized',
  );
  isError(await req('GET', '/api/v1/openapi.json', undefined, {}, secured), 401, 'unauthorized');
  assert.equal(
    (await req('GET', '/api/v1/health', undefined, { authorization: 'Bearer s3cret-token' }, secured)).status,
    200,
  );
  assert.equal((await req('GET', '/', undefined, {}, secured)).status, 200);
  await secured.close();
});

test('OpenAPI 3.1 document covers every route with its schemas; /api/v1/docs renders it', async () => {
  const doc = (await req('GET', '/api/v1/openapi.json')).body;
  assert.equal(doc.openapi, '3.1.0');
  const expected: [string, string][] = [
    ['post', '/api/v1/claims'],
    ['post', '/api/v1/claims/batch'],
    ['post', '/api/v1/claims/text'],
    ['get', '/api/v1/entities'],
    ['get', '/api/v1/entities/{entity}'],
    ['get', '/api/v1/entities/{entity}/claims'],
    ['get', '/api/v1/entities/{entity}/context'],
    ['get', '/api/v1/paths/{from}/{to}'],
    ['post', '/api/v1/retract'],
    ['get', '/api/v1/schema'],
    ['get', '/api/v1/stats'],
    ['get', '/api/v1/health'],
    ['get', '/api/v1/quality'],
    ['get', '/api/v1/insights/bridges'],
    ['get', '/api/v1/insights/gaps'],
    ['get', '/api/v1/insights/missing'],
    ['post', '/api/v1/inquiries'],
    ['get', '/api/v1/inquiries'],
  ];
  for (const [m, p] of expected) {
    const op = doc.paths[p]?.[m];
    assert.ok(op, `${m.toUpperCase()} ${p} documented`);
    assert.ok(op.responses['400'] && op.responses['401'] && op.responses['500'], `${p} documents its errors`);
    if (m === 'post') assert.ok(op.requestBody.content['application/json'].schema.properties, `${p} body schema`);
  }
  assert.deepEqual(doc.paths['/api/v1/claims'].post.requestBody.content['application/json'].schema.required, [
    'subject',
    'predicate',
    'object',
  ]);
  assert.ok(
    doc.paths['/api/v1/entities'].get.parameters.some((p: any) => p.name === 'offset' && p.in === 'query'),
    'query parameters',
  );
  assert.ok(!Object.keys(doc.paths).some((p) => !p.startsWith('/api/v1/') || p.includes('/docs')), 'only API routes');
  const docs = await app.inject({ method: 'GET', url: '/api/v1/docs/' });
  assert.equal(docs.statusCode, 200);
  assert.match(docs.body, /swagger/i);
});

test('kb-console bin: binds 127.0.0.1 by default and serves; a missing base is a clear error', async () => {
  const env = { ...process.env };
  delete env.KB_DB_PATH;
  delete env.KB_CONSOLE_TOKEN;
  const bad = spawnSync(
    process.execPath,
    ['--conditions=evident-source', '--import', 'tsx', 'packages/kb-server/src/bin/kb-console.ts', '--port', '0'],
    { cwd: repoRoot, env, encoding: 'utf8', timeout: 120_000 },
  );
  assert.notEqual(bad.status, 0);
  assert.match(bad.stderr, /KB_DB_PATH/);
  const child = spawn(
    process.execPath,
    [
      '--conditions=evident-source',
      '--import',
      'tsx',
      'packages/kb-server/src/bin/kb-console.ts',
      '--db',
      kb.path,
      '--port',
      '0',
    ],
    { cwd: repoRoot, env: { ...env, LOG_LEVEL: 'warn' } },
  );
  let err = '';
  child.stderr.on('data', (d) => (err += String(d)));
  try {
    // A generous bound: starting a process that compiles TypeScript is slow on a busy machine.
    for (const end = Date.now() + 60_000; !/ at http/.test(err) && child.exitCode === null && Date.now() < end; )
      await new Promise((r) => setTimeout(r, 50));
    const m = /at (http:\/\/([\d.]+):(\d+))\//.exec(err);
    assert.ok(m, `started: ${err}`);
    assert.equal(m[2], '127.0.0.1');
    const res = await fetch(`${m[1]}/api/v1/entities/BRCA1`);
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { id: string }).id, 'gene:brca1');
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.on('exit', r));
  }
});
