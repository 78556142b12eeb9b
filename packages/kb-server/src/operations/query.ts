// A read-only openCypher query over the KB's graph (db.rawQueryJson; the graph model is in kb-core's
// src/cypher/README.md). It runs on the base's replica thread, which also makes its JSON, so the server keeps
// answering meanwhile; past its time budget or its thread's heap cap the thread is stopped and its memory given
// back. Syntax and type errors are 400 with the TCK's error kind in the code, a write clause 400 cypher_read_only,
// past the time budget 408, past the row, list, string or memory budgets 413, and 429 busy (Retry-After) when too
// many queries are waiting.
import { Type } from '@sinclair/typebox';
import { operation, RawJson, strict } from './operation.js';

const QueryResult = Type.Object(
  {
    columns: Type.Array(Type.String()),
    rows: Type.Array(Type.Array(Type.Unknown())),
    stats: Type.Object({ rows: Type.Integer(), elapsed_ms: Type.Number() }),
  },
  { additionalProperties: false },
);

export const QUERY_OPERATIONS = [
  operation({
    name: 'cypher_query',
    title: 'Run a Cypher query',
    description:
      'Run a read-only openCypher query (nodes: entities, labelled by type; relationships: active facts, typed by predicate) and answer ' +
      '{ columns, rows, stats }. Nodes come back as { kind: "node", id, labels, properties }, relationships as ' +
      '{ kind: "relationship", id, type, start, end, properties }. Past timeout_ms (default 30 000) 408, past max_rows (default 10 000) 413.',
    rest: { method: 'POST', path: '/query', tag: 'query', errors: [408, 413, 429, 503] },
    input: Type.Object(
      {
        cypher: Type.String({ minLength: 1, maxLength: 20_000, description: 'An openCypher read query' }),
        params: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'Named parameters ($name)' })),
        timeout_ms: Type.Optional(Type.Integer({ minimum: 1, maximum: 120_000, description: 'Default 30 000' })),
        max_rows: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000, description: 'Default 10 000' })),
      },
      strict,
    ),
    output: QueryResult,
    effect: 'read',
    library: ['rawQueryJson'],
    example: {
      cypher: 'MATCH (d:drug)-[r]->(t) RETURN d.name AS drug, type(r) AS rel, t.name AS target ORDER BY drug, target',
    },
    // QueryResult's shape, made on the replica thread.
    run: async (db, { cypher, params, ...options }) =>
      new RawJson(await db.rawQueryJson(cypher, params ?? {}, options)),
  }),
];
