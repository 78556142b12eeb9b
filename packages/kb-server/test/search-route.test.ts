// GET /api/v1/search and the semantic part of GET /api/v1/entities?query= against a real temporary SQLite base.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { quickstart, type ClaimInput, type KbDB } from '@evident/kb';
import { buildConsole } from '../src/console/server.js';
import { tempKb } from './helpers.js';

const kb = tempKb('search.kb');
let db: KbDB;
let app: FastifyInstance;

const c = (s: string, st: string, p: string, o: string, ot: string, src: string): ClaimInput => ({
  subject: [s, st],
  predicate: [p, 'association'],
  object: [o, ot],
  provenance: { source_type: 'literature', source_id: src },
});

before(async () => {
  db = await quickstart(kb.path);
  await db.ingestBatch([
    c('olaparib', 'drug', 'inhibits', 'PARP1', 'protein', 's1'),
    c('olaparib', 'drug', 'treats', 'breast cancer', 'disease', 's2'),
    c('imatinib', 'drug', 'inhibits', 'ABL1', 'protein', 's3'),
    c('imatinib', 'drug', 'treats', 'chronic myeloid leukemia', 'disease', 's4'),
    c('lisinopril', 'drug', 'treats', 'hypertension', 'disease', 's5'),
  ]);
  await db.embeddingsReady();
  app = await buildConsole(db);
});

after(async () => {
  await app?.close();
  await db?.close();
  kb.cleanup();
});

test('GET /search answers ranked claims with signals, per mode, and refuses bad parameters', async () => {
  const r = await app.inject({
    method: 'GET',
    url: `/api/v1/search?query=${encodeURIComponent('PARP inhibitor for breast cancer')}&k=2`,
  });
  assert.equal(r.statusCode, 200, r.body);
  const body = r.json();
  assert.equal(body.mode, 'hybrid');
  assert.equal(body.pending, 0);
  assert.deepEqual(body.results.map((h: any) => `${h.claim.subject[0]} ${h.claim.object[0]}`).sort(), [
    'olaparib PARP1',
    'olaparib breast cancer',
  ]);
  const lex = await app.inject({ method: 'GET', url: '/api/v1/search?query=hypertension&mode=lexical' });
  assert.equal(lex.json().results[0].claim.object[0], 'hypertension');
  assert.equal(lex.json().results[0].signals.semantic, null);
  for (const url of [
    '/api/v1/search',
    '/api/v1/search?query=',
    '/api/v1/search?query=x&k=0',
    '/api/v1/search?query=x&mode=fuzzy',
  ]) {
    const bad = await app.inject({ method: 'GET', url });
    assert.equal(bad.statusCode, 400, url);
  }
});

test('GET /entities?query= adds entities found by meaning after name matches', async () => {
  const r = await app.inject({
    method: 'GET',
    url: `/api/v1/entities?query=${encodeURIComponent('kinase inhibitor')}`,
  });
  assert.equal(r.statusCode, 200, r.body);
  const hits = r.json().results;
  assert.ok(
    hits.some((h: any) => h.id === 'drug:imatinib' && h.match === 'semantic'),
    JSON.stringify(hits),
  );
});
