// POST /api/v1/query: a read-only openCypher query over the KB's graph (db.rawQueryJson; the graph model is in
// kb-core's src/cypher/README.md). The query runs on the base's replica thread, and its JSON is made there, so the
// console keeps answering while it runs; past its time budget or its thread's heap cap the thread is stopped and
// its memory given back. Syntax and type errors answer 400 with the TCK's error kind in the code, a write clause
// 400 cypher_read_only, a query past its time budget 408, past its row, list, string or memory budget 413 (the
// thread's heap cap: cypher_memory_limit), and 429 busy (Retry-After) when too many queries are waiting.
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { KbDB } from '@evident/kb';
import * as S from '../surface/schemas.js';
import { withRetryAfter } from './long-calls.js';

const QueryBody = Type.Object(
  {
    cypher: Type.String({ minLength: 1, maxLength: 20_000, description: 'An openCypher read query' }),
    params: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'Named parameters ($name)' })),
    timeout_ms: Type.Optional(Type.Integer({ minimum: 1, maximum: 120_000, description: 'Default 30 000' })),
    max_rows: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000, description: 'Default 10 000' })),
  },
  { additionalProperties: false },
);

const QueryResult = Type.Object(
  {
    columns: Type.Array(Type.String()),
    rows: Type.Array(Type.Array(Type.Unknown())),
    stats: Type.Object({ rows: Type.Integer(), elapsed_ms: Type.Number() }),
  },
  { additionalProperties: false },
);

export async function registerQueryRoutes(api: FastifyInstance, db: KbDB): Promise<void> {
  api.post(
    '/query',
    {
      schema: {
        tags: ['query'],
        summary: 'Run a read-only openCypher query (nodes: entities; relationships: active facts)',
        body: QueryBody,
        response: {
          200: QueryResult,
          ...Object.fromEntries([400, 408, 413, 429, 500, 503].map((c) => [c, { ...S.ErrorBody }])),
        },
      },
    },
    async (req, reply) => {
      const b = req.body as {
        cypher: string;
        params?: Record<string, unknown>;
        timeout_ms?: number;
        max_rows?: number;
      };
      const json = await withRetryAfter(reply, () =>
        db.rawQueryJson(b.cypher, b.params ?? {}, {
          ...(b.timeout_ms !== undefined ? { timeout_ms: b.timeout_ms } : {}),
          ...(b.max_rows !== undefined ? { max_rows: b.max_rows } : {}),
        }),
      );
      // QueryResult's shape, made on the replica thread: sent as it is.
      return reply.type('application/json; charset=utf-8').send(json);
    },
  );
}
