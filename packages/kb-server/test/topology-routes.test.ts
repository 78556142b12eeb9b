// The console's topology routes against a real temporary SQLite base: 409 before a computation, the computation,
// topics, one topic, density, cross-domain bridges, the error shape and the OpenAPI document.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { open, type ClaimInput, type KbDB } from '@evident/kb';
import { buildConsole } from '../src/console/server.js';
import { tempKb } from './helpers.js';

const kb = tempKb('topology.kb');
let db: KbDB;
let app: FastifyInstance;

const c = (s: string, o: string, src: string): ClaimInput => ({
  subject: [s, 'gene'],
  predicate: ['interacts_with', 'molecular'],
  object: [o, 'gene'],
  provenance: { source_type: 'literature', source_id: src },
});

before(async () => {
  db = await open(kb.path);
  const claims: ClaimInput[] = [];
  for (const side of ['a', 'b']) {
    for (let i = 0; i < 5; i++) for (let j = i + 1; j < 5; j++) claims.push(c(`${side}${i}`, `${side}${j}`, side));
  }
  claims.push(c('a0', 'b0', 'bridge'));
  await db.ingestBatch(claims);
  app = await buildConsole(db);
});

after(async () => {
  await app?.close();
  await db?.close();
  kb.cleanup();
});

test('topology routes: 409 first, then compute, topics, a topic, density, cross-domain bridges', async () => {
  const early = await app.inject({ method: 'GET', url: '/api/v1/topology' });
  assert.equal(early.statusCode, 409);
  assert.equal(early.json().error.code, 'not_computed');

  const bad = await app.inject({ method: 'POST', url: '/api/v1/topology/compute', payload: { resolution: -1 } });
  assert.equal(bad.statusCode, 400);
  assert.equal(bad.json().error.code, 'invalid_parameters');

  const noIterations = await app.inject({
    method: 'POST',
    url: '/api/v1/topology/compute',
    payload: { n_iterations: 0 },
  });
  assert.equal(noIterations.statusCode, 400);
  assert.equal(noIterations.json().error.details[0].path, '/n_iterations');
  const noRuns = await app.inject({ method: 'POST', url: '/api/v1/topology/compute', payload: { restarts: 0 } });
  assert.equal(noRuns.statusCode, 400);
  assert.equal(noRuns.json().error.details[0].path, '/restarts');
  const once = await app.inject({ method: 'POST', url: '/api/v1/topology/compute', payload: { n_iterations: 1 } });
  assert.equal(once.statusCode, 200, once.body);
  assert.equal(once.json().levels[0].iterations, 1);

  const computed = await app.inject({ method: 'POST', url: '/api/v1/topology/compute', payload: { seed: 1 } });
  assert.equal(computed.statusCode, 200, computed.body);
  const result = computed.json();
  assert.equal(result.entity_count, 10);
  assert.equal(result.levels[0].topic_count, 2);

  const topology = (await app.inject({ method: 'GET', url: '/api/v1/topology?level=0' })).json();
  assert.equal(topology.topics.length, 2);
  assert.equal(topology.status.current, true);
  assert.ok(topology.topics[0].label.includes('(gene; interacts_with)'));

  const one = await app.inject({ method: 'GET', url: `/api/v1/topics/${topology.topics[0].topic_id}?limit=2` });
  assert.equal(one.statusCode, 200);
  assert.equal(one.json().entities.length, 2);
  assert.equal((await app.inject({ method: 'GET', url: '/api/v1/topics/7.7' })).statusCode, 404);

  const density = (await app.inject({ method: 'GET', url: '/api/v1/density' })).json();
  assert.ok(density.topics.every((d: { internal_density: number }) => d.internal_density === 1));

  const bridges = (await app.inject({ method: 'GET', url: '/api/v1/insights/cross-domain?top_k=2' })).json();
  assert.deepEqual(bridges.bridges.map((b: { entity: { id: string } }) => b.entity.id).sort(), ['gene:a0', 'gene:b0']);

  const spec = (await app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
  for (const p of [
    '/api/v1/topology',
    '/api/v1/topics/{topic_id}',
    '/api/v1/density',
    '/api/v1/insights/cross-domain',
    '/api/v1/topology/compute',
  ]) {
    assert.ok(spec.paths[p], `${p} in OpenAPI`);
  }
});
