// The MCP tools: one per operation of the table (src/operations), its name, schemas and call; the annotations
// follow from what the call does to the base.
import type { TObject } from '@sinclair/typebox';
import type { KbDB } from '@evident/kb';
import { OPERATIONS } from '../operations/table.js';
import { type Operation, RawJson } from '../operations/operation.js';

export interface ToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export interface ToolDef {
  name: string;
  description: string;
  input: TObject;
  output: TObject;
  annotations: ToolAnnotations;
  run(db: KbDB, args: Record<string, unknown>): Promise<Record<string, unknown>>;
}

/** The tool of an operation. A JSON text made elsewhere (Cypher's, on the replica thread) is parsed. */
export function toolOf(op: Operation): ToolDef {
  return {
    name: op.name,
    description: op.description,
    input: op.input,
    output: op.output,
    annotations: {
      title: op.title,
      readOnlyHint: op.effect === 'read',
      destructiveHint: op.effect === 'destructive',
      idempotentHint: op.idempotent,
      openWorldHint: false,
    },
    run: async (db, args) => {
      const out = await op.run(db, args);
      return (out instanceof RawJson ? JSON.parse(out.text) : out) as Record<string, unknown>;
    },
  };
}

export const TOOLS: ToolDef[] = OPERATIONS.map(toolOf);
