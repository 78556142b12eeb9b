// Issue 41, point 4: compute_topology's `full` and `incremental_max_fraction` over REST (kb-console's route) and
// MCP (kb-mcp's tool), each on its own base. A second computation after a small ingest updates the previous result
// (mode "incremental"); `full: true` recomputes from scratch; a fraction outside (0, 1] is refused.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { FastifyInstance } from 'fastify';
import { open, type ClaimInput, type KbDB } from '@evident/kb';
import { buildConsole } from '../src/console/server.js';
import { createMcpServer } from '../src/mcp/server.js';
import { tempKb } from './helpers.js';

const restKb = tempKb('rest-incremental.kb');
const mcpKb = tempKb('mcp-incremental.kb');
let restDb: KbDB;
let mcpDb: KbDB;
let app: FastifyInstance;
let client: Client;

const c = (s: string, o: string, src: string): ClaimInput => ({
  subject: [s, 'gene'],
  predicate: ['interacts_with', 'molecular'],
  object: [o, 'gene'],
  provenance: { source_type: 'literature', source_id: src },
});

/** Four cliques of six genes joined by one bridge each: 24 entities. */
function cliques(): ClaimInput[] {
  const claims: ClaimInput[] = [];
  for (const side of ['a', 'b', 'c', 'd']) {
    for (let i = 0; i < 6; i++) for (let j = i + 1; j < 6; j++) claims.push(c(`${side}${i}`, `${side}${j}`, side));
  }
  claims.push(c('a0', 'b0', 'bridge'), c('c0', 'd0', 'bridge'));
  return claims;
}

// One claim between two genes already known: 2 of 24 entities changed (about 8%).
const small = [c('a1', 'a2', 'second-look')];

type Surface = {
  compute(args: Record<string, unknown>): Promise<{ ok: boolean; body: any }>;
  ingest(claims: ClaimInput[]): Promise<unknown>;
};

const rest: Surface = {
  async compute(args) {
    const r = await app.inject({ method: 'POST', url: '/api/v1/topology/compute', payload: args });
    return { ok: r.statusCode === 200, body: r.json() };
  },
  ingest: (claims) => restDb.ingestBatch(claims),
};
const mcp: Surface = {
  async compute(args) {
    const r = (await client.callTool({ name: 'compute_topology', arguments: args })) as {
      isError?: boolean;
      content: { text: string }[];
      structuredContent?: unknown;
    };
    return { ok: !r.isError, body: r.isError ? JSON.parse(r.content[0]!.text) : r.structuredContent };
  },
  ingest: (claims) => mcpDb.ingestBatch(claims),
};

before(async () => {
  restDb = await open(restKb.path);
  mcpDb = await open(mcpKb.path);
  await restDb.ingestBatch(cliques());
  await mcpDb.ingestBatch(cliques());
  app = await buildConsole(restDb);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(mcpDb).connect(serverSide);
  client = new Client({ name: 'topology-incremental-test', version: '1.0.0' });
  await client.connect(clientSide);
});

after(async () => {
  await client?.close();
  await app?.close();
  await restDb?.close();
  await mcpDb?.close();
  restKb.cleanup();
  mcpKb.cleanup();
});

for (const [name, surface] of [
  ['REST', rest],
  ['MCP', mcp],
] as const) {
  test(`${name}: compute_topology updates incrementally after a small ingest, and full: true recomputes`, async () => {
    for (const fraction of [0, 1.5, -0.1]) {
      const bad = await surface.compute({ incremental_max_fraction: fraction });
      assert.equal(bad.ok, false, `incremental_max_fraction ${fraction} is refused`);
      assert.equal(bad.body.error.code, 'invalid_parameters');
      assert.equal(bad.body.error.details[0].path, '/incremental_max_fraction');
    }
    const notFlag = await surface.compute({ full: 'yes' });
    assert.equal(notFlag.ok, false);
    assert.equal(notFlag.body.error.details[0].path, '/full');

    const first = await surface.compute({ seed: 1 });
    assert.ok(first.ok, JSON.stringify(first.body));
    assert.equal(first.body.mode, 'full');
    assert.equal(first.body.full_reason, 'no previous result to update');
    assert.equal(first.body.entity_count, 24);

    await surface.ingest(small);
    // Above the default bound (0.01 of the entities): a full recompute, saying why.
    const bounded = await surface.compute({ seed: 1 });
    assert.ok(bounded.ok, JSON.stringify(bounded.body));
    assert.equal(bounded.body.mode, 'full');
    assert.notEqual(bounded.body.full_reason, null);

    await surface.ingest([c('b1', 'b2', 'second-look')]);
    const updated = await surface.compute({ seed: 1, incremental_max_fraction: 0.5 });
    assert.ok(updated.ok, JSON.stringify(updated.body));
    assert.equal(updated.body.mode, 'incremental', JSON.stringify(updated.body));
    assert.equal(updated.body.full_reason, null);
    assert.equal(updated.body.changed_entities, 2);
    assert.ok(updated.body.affected_entities >= 2);
    assert.equal(updated.body.levels[0].topic_count, 4);

    await surface.ingest([c('c1', 'c2', 'second-look')]);
    const forced = await surface.compute({ seed: 1, incremental_max_fraction: 0.5, full: true });
    assert.ok(forced.ok, JSON.stringify(forced.body));
    assert.equal(forced.body.mode, 'full');
    assert.equal(forced.body.full_reason, 'asked for (full: true)');
    assert.equal(forced.body.changed_entities, null);
    assert.equal(forced.body.levels[0].topic_count, 4);
  });
}
