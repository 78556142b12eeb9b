// /api/v1 routes of the claim, entity and report operations, made from the operation table (src/operations).
import type { FastifyInstance } from 'fastify';
import type { KbDB } from '@evident/kb';
import { OPERATION_GROUPS } from '../operations/table.js';
import { registerOperations } from '../operations/rest.js';

export async function registerRoutes(api: FastifyInstance, db: KbDB): Promise<void> {
  const { claims, entities, reports } = OPERATION_GROUPS;
  await registerOperations(api, db, [...claims, ...entities, ...reports]);
}
