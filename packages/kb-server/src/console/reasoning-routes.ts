// /api/v1 routes of the reasoning operations (packages/kb/README.md, "Reasoning over evidence"), made from the
// operation table (src/operations/reasoning.ts). What-if's body is parsed in an event-loop turn of its own.
import type { FastifyInstance } from 'fastify';
import type { KbDB } from '@evident/kb';
import { OPERATION_GROUPS } from '../operations/table.js';
import { registerOperations } from '../operations/rest.js';

export async function registerReasoningRoutes(api: FastifyInstance, db: KbDB): Promise<void> {
  await registerOperations(api, db, OPERATION_GROUPS.reasoning);
}
