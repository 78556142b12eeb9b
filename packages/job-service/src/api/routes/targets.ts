// /v1/targets: targets found across the caller's completed discovery jobs.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import { PageQuery, errorResponses } from '../../wire/schemas.js';
import { decodeCursor, encodeCursor, keyOf, type RouteDeps } from './common.js';

export const targetRoutes: FastifyPluginAsync<RouteDeps> = async (app, deps) => {
  app.get(
    '/v1/targets',
    {
      schema: {
        summary: "Targets found across the caller's completed discovery jobs, newest first",
        tags: ['targets'],
        querystring: PageQuery,
        response: {
          200: Type.Object({
            targets: Type.Array(Type.Object({ job_id: Type.String() }, { additionalProperties: true })),
            next_cursor: Type.Union([Type.String(), Type.Null()]),
          }),
          ...errorResponses(400, 401, 429),
        },
      },
    },
    async (req) => {
      const q = req.query as { limit?: number; cursor?: string };
      const limit = q.limit ?? 50;
      const rows = await deps.store.listTargets(keyOf(req).key_id, limit + 1, decodeCursor(q.cursor, 'querystring:'));
      const page = rows.slice(0, limit);
      return {
        targets: page.map((r) => ({ ...r.target, job_id: r.job_id })),
        next_cursor: rows.length > limit ? encodeCursor(page[page.length - 1]!.seq) : null,
      };
    },
  );
};
