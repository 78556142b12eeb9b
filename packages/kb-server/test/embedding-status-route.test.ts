// GET /api/v1/embeddings/status (issue 41): the library's embeddingStatus() as it is, on a base with the local
// embedder (pending work, then settled: progress 1, no ETA) and on one opened without vectors (status null).
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { type ClaimInput, open, quickstart } from '@evident/kb';
import { buildConsole } from '../src/console/server.js';
import { tempKb } from './helpers.js';

const dirs: { cleanup(): void }[] = [];
after(() => {
  for (const d of dirs) d.cleanup();
});

const claims = (n: number): ClaimInput[] =>
  Array.from({ length: n }, (_, i) => ({
    subject: [`GENE${i}`, 'gene'],
    predicate: ['associated_with', 'association'],
    object: [`disease ${i % 7}`, 'disease'],
    provenance: { source_type: 'literature', source_id: `PMID:${i}` },
  }));

test('GET /embeddings/status answers the embedder’s progress, and 1 with no ETA once nothing is pending', async () => {
  const kb = tempKb('status.kb');
  dirs.push(kb);
  const db = await quickstart(kb.path);
  const app = await buildConsole(db);
  try {
    await db.ingestBatch(claims(300));
    const early = await app.inject({ method: 'GET', url: '/api/v1/embeddings/status' });
    assert.equal(early.statusCode, 200, early.body);
    const s = early.json().status;
    assert.deepEqual(Object.keys(s).sort(), [
      'dim',
      'eta_ms',
      'index_pending',
      'index_progress',
      'indexed',
      'last_error',
      'model',
      'pending',
      'progress',
      'provider',
    ]);
    const lib = db.embeddingStatus()!;
    assert.deepEqual([s.provider, s.model, s.dim], [lib.provider, lib.model, lib.dim]);
    assert.ok(s.progress >= 0 && s.progress <= 1);
    assert.ok(s.eta_ms === null || s.eta_ms >= 0);
    await db.embeddingsReady();
    const done = (await app.inject({ method: 'GET', url: '/api/v1/embeddings/status' })).json().status;
    assert.equal(done.pending, 0);
    assert.equal(done.progress, 1);
    assert.equal(done.eta_ms, null);
    assert.ok(done.indexed >= 300, `indexed ${done.indexed}`);
    assert.equal(done.last_error, null);
  } finally {
    await app.close();
    await db.close();
  }
});

test('GET /embeddings/status answers null on a base opened without vectors', async () => {
  const kb = tempKb('novec.kb');
  dirs.push(kb);
  const db = await open(kb.path, { embedding: false });
  const app = await buildConsole(db);
  try {
    const r = await app.inject({ method: 'GET', url: '/api/v1/embeddings/status' });
    assert.equal(r.statusCode, 200, r.body);
    assert.deepEqual(r.json(), { status: null });
  } finally {
    await app.close();
    await db.close();
  }
});
