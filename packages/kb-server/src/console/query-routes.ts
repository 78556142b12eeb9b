// POST /api/v1/query: a read-only openCypher query, made from the operation table (src/operations/query.ts).
import type { FastifyInstance } from 'fastify';
import type { KbDB } from '@evident/kb';
import { OPERATION_GROUPS } from '../operations/table.js';
import { registerOperations } from '../operations/rest.js';

export async function registerQueryRoutes(api: FastifyInstance, db: KbDB): Promise<void> {
  await registerOperations(api, db, OPERATION_GROUPS.query);
}
