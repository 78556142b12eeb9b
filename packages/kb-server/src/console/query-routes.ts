// POST /api/v1/query: a read-only openCypher query over the KB's graph (db.rawQuery; the graph model is in
// kb-core's src/cypher/README.md). Syntax and type errors answer 400 with the TCK's error kind in the code,
// a write clause 400 cypher_read_only, a query past its time budget 408, past its row budget 413.
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { KbDB } from '@evident/kb';
import * as S from '../surface/schemas.js';

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
          ...Object.fromEntries([400, 408, 413, 500].map((c) => [c, { ...S.ErrorBody }])),
        },
      },
    },
    async (req) => {
      const b = req.body as {
        cypher: string;
        params?: Record<string, unknown>;
        timeout_ms?: number;
        max_rows?: number;
      };
      return db.rawQuery(b.cypher, b.params ?? {}, {
        ...(b.timeout_ms !== undefined ? { timeout_ms: b.timeout_ms } : {}),
        ...(b.max_rows !== undefined ? { max_rows: b.max_rows } : {}),
      });
    },
  );
}
