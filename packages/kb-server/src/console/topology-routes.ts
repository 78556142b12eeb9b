// /api/v1 topology routes (topics, one topic, density, cross-domain bridges, the computation), made from the
// operation table (src/operations/topology.ts).
import type { FastifyInstance } from 'fastify';
import type { KbDB } from '@evident/kb';
import { OPERATION_GROUPS } from '../operations/table.js';
import { registerOperations } from '../operations/rest.js';

export async function registerTopologyRoutes(api: FastifyInstance, db: KbDB): Promise<void> {
  await registerOperations(api, db, OPERATION_GROUPS.topology);
}
