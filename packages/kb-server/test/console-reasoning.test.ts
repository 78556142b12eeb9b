// The reasoning routes of the REST console against a real temporary base: each answers as the library does,
// bad input is a 400 naming the field, an unknown id a 404, and every route is in the OpenAPI document.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { fieldToPointer } from '@evident/contract';
import { quickstart, type KbDB } from '@evident/kb';
import { buildConsole } from '../src/console/server.js';
import { tempKb } from './helpers.js';

const kb = tempKb('reasoning.kb');
let db: KbDB;
let app: FastifyInstance;
let derived: string;
let t0: string;

async function req(method: string, url: string, payload?: unknown) {
  const r = await app.inject({
    method: method as 'GET',
    url,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  const body: any = r.json();
  return { status: r.statusCode, body };
}

before(async () => {
  db = await quickstart(kb.path);
  t0 = new Date(Date.now() - 1000).toISOString();
  const r = await db.ingestBatch([
    {
      subject: ['olaparib', 'drug'],
      predicate: ['inhibits', 'pharmacology'],
      object: ['PARP1', 'protein'],
      provenance: { source_type: 'literature', source_id: 'pmid:1' },
      confidence: 0.9,
    },
    {
      subject: ['PARP1', 'protein'],
      predicate: ['associated_with', 'association'],
      object: ['breast cancer', 'disease'],
      provenance: { source_type: 'database', source_id: 'omim' },
      confidence: 0.8,
    },
  ]);
  derived = await db.ingest(
    ['PARP1', 'protein'],
    ['interacts_with', 'molecular'],
    ['BRCA1', 'gene'],
    { source_type: 'inference', source_id: 'model-1', derived_from: [r.claim_ids[0]!] },
    { confidence: 0.7 },
  );
  app = await buildConsole(db);
});

after(async () => {
  await app?.close();
  await db?.close();
  kb.cleanup();
});

test('impact and audit answer as the library does; unknown ids are 404', async () => {
  const im = await req('GET', '/api/v1/insights/impact/pmid%3A1');
  assert.equal(im.status, 200);
  assert.deepEqual(im.body, await db.impact('pmid:1'));
  assert.deepEqual(im.body.degraded_claim_ids, [derived]);
  assert.equal((await req('GET', '/api/v1/insights/impact/nope')).status, 404);

  const a = await req('GET', `/api/v1/claims/${derived}/audit`);
  assert.equal(a.status, 200);
  assert.equal(a.body.derived_from[0].provenance.source_id, 'pmid:1');
  assert.deepEqual(a.body, await db.audit(derived));
  assert.equal((await req('GET', '/api/v1/claims/clm_nope/audit')).status, 404);
  const e = await req('GET', '/api/v1/entities/BRCA1/audit');
  assert.deepEqual([e.status, e.body.kind, e.body.claims.length], [200, 'entity', 1]);
});

test('insights routes: drift, fragile, stale, source reliability, consensus, predict, evolution, blindspots, hypothesis', async () => {
  const drift = await req('GET', `/api/v1/insights/drift?since=${encodeURIComponent(t0)}`);
  assert.equal(drift.status, 200);
  assert.equal(drift.body.counts.added, 3);
  const bad = await req(
    'GET',
    `/api/v1/insights/drift?since=${encodeURIComponent(new Date().toISOString())}&until=${encodeURIComponent(t0)}`,
  );
  assert.equal(bad.status, 400);
  assert.equal(bad.body.error.details[0].path, fieldToPointer('since'));
  assert.equal((await req('GET', '/api/v1/insights/drift?since=yesterday')).body.error.details[0].path, '/since');

  const fragile = await req('GET', '/api/v1/insights/fragile');
  assert.deepEqual(fragile.body.relationships, await db.fragile());
  assert.equal((await req('GET', '/api/v1/insights/stale?days=0')).body.count, 3);
  assert.equal((await req('GET', '/api/v1/insights/stale?days=-1')).status, 400);
  const rel = await req('GET', '/api/v1/insights/source-reliability?by=source_type');
  assert.deepEqual(rel.body.sources, await db.sourceReliability({ by: 'source_type' }));
  const cons = await req('GET', '/api/v1/insights/consensus/PARP1?other=olaparib');
  assert.deepEqual(cons.body, await db.consensus('PARP1', 'olaparib'));
  const pred = await req('GET', '/api/v1/insights/predict/olaparib');
  assert.deepEqual(
    pred.body.predictions.map((p: any) => [p.predicate, p.target.id]),
    [['may_treat', 'disease:breast cancer']],
  );
  const ev = await req('GET', '/api/v1/insights/evolution/PARP1');
  assert.equal(ev.body.events.length, 3);
  const blind = await req('GET', '/api/v1/insights/blindspots?min_claims=1');
  assert.ok(blind.body.thin_entity_types.some((t: any) => t.entity_type === 'tissue'));
  const h = await req('GET', '/api/v1/insights/hypothesis?subject=olaparib&predicate=treats&object=breast%20cancer');
  assert.deepEqual(h.body, await db.testHypothesis('olaparib', 'treats', 'breast cancer'));
  assert.equal(
    (await req('GET', '/api/v1/insights/hypothesis?subject=olaparib&predicate=treats&object=nobody')).status,
    404,
  );
  // as_of: before anything was written, nothing is known.
  assert.equal((await req('GET', `/api/v1/insights/evolution/PARP1?as_of=${encodeURIComponent(t0)}`)).status, 404);
});

test('POST /insights/what-if: counts before and after, a hypothesis on the view; nothing written', async () => {
  const seq = (await db.stats()).log_seq;
  const r = await req('POST', '/api/v1/insights/what-if', { retract_sources: ['omim'] });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.equal(r.body.before.claim_count, 3);
  assert.equal(r.body.after.claim_count, 2);
  assert.equal(r.body.hypothesis, undefined);
  // Breast cancer's only claim is omim's: in that view the entity is unknown.
  const unknown = await req('POST', '/api/v1/insights/what-if', {
    retract_sources: ['omim'],
    hypothesis: { subject: 'olaparib', predicate: 'treats', object: 'breast cancer' },
  });
  assert.equal(unknown.status, 404);
  const gone = await req('POST', '/api/v1/insights/what-if', {
    retract_sources: ['omim'],
    hypothesis: { subject: 'olaparib', predicate: 'treats', object: 'PARP1' },
  });
  assert.equal(gone.body.hypothesis.verdict, 'unknown');
  const bad = await req('POST', '/api/v1/insights/what-if', { add_claims: [{ subject: ['x', 'gene'] }] });
  assert.equal(bad.status, 400);
  assert.equal((await req('POST', '/api/v1/insights/what-if', { retract_sources: ['nope'] })).status, 404);
  assert.equal((await db.stats()).log_seq, seq);
});

test('the reasoning routes are in the OpenAPI document with their errors', async () => {
  const doc = (await req('GET', '/api/v1/openapi.json')).body;
  for (const [m, p] of [
    ['get', '/api/v1/insights/impact/{source_id}'],
    ['get', '/api/v1/claims/{claim_id}/audit'],
    ['get', '/api/v1/entities/{entity}/audit'],
    ['get', '/api/v1/insights/drift'],
    ['get', '/api/v1/insights/fragile'],
    ['get', '/api/v1/insights/stale'],
    ['get', '/api/v1/insights/source-reliability'],
    ['get', '/api/v1/insights/consensus/{entity}'],
    ['get', '/api/v1/insights/predict/{entity}'],
    ['get', '/api/v1/insights/evolution/{entity}'],
    ['get', '/api/v1/insights/blindspots'],
    ['get', '/api/v1/insights/hypothesis'],
    ['post', '/api/v1/insights/what-if'],
  ] as const) {
    const op = doc.paths[p]?.[m];
    assert.ok(op, `${m} ${p} documented`);
    assert.ok(op.responses['200'].content && op.responses['400'] && op.responses['404'], `${p} responses`);
  }
});
