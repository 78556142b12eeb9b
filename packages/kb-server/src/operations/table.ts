// The operation table: every KB operation both servers offer, once. kb-console's routes (and with them its OpenAPI
// document) and kb-mcp's tools are made from this list; adding an operation is an entry in one of these files
// (CONTRIBUTING.md, "Add a KB operation to both servers").
import { CLAIM_OPERATIONS } from './claims.js';
import { ENTITY_OPERATIONS } from './entities.js';
import type { Operation } from './operation.js';
import { QUERY_OPERATIONS } from './query.js';
import { REASONING_OPERATIONS } from './reasoning.js';
import { REPORT_OPERATIONS } from './reports.js';
import { TOPOLOGY_OPERATIONS } from './topology.js';

/** The groups, each a file of this folder, registered on the console by the route module named after it. */
export const OPERATION_GROUPS = {
  claims: CLAIM_OPERATIONS,
  entities: ENTITY_OPERATIONS,
  reports: REPORT_OPERATIONS,
  reasoning: REASONING_OPERATIONS,
  topology: TOPOLOGY_OPERATIONS,
  query: QUERY_OPERATIONS,
} as const satisfies Record<string, readonly Operation[]>;

export const OPERATIONS: readonly Operation[] = Object.values(OPERATION_GROUPS).flat();

export function operationByName(name: string): Operation | undefined {
  return OPERATIONS.find((op) => op.name === name);
}

export * from './operation.js';
