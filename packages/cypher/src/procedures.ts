// Procedures a caller registers for CALL: a signature (typed inputs and outputs) and a function from the
// arguments to output rows. The engine ships none; the TCK runner registers the ones its scenarios declare.
import { CypherTypeError } from './errors.js';
import { GraphNode, GraphRelationship, isMap, PathValue, type Value } from './values.js';

export interface ProcedureField {
  name: string;
  /** A Cypher type name, `?` for nullable: INTEGER?, FLOAT?, NUMBER?, STRING?, BOOLEAN?, MAP?, LIST?, ANY?. */
  type: string;
}

export interface Procedure {
  inputs: readonly ProcedureField[];
  outputs: readonly ProcedureField[];
  /** The output rows (values in `outputs` order) for these arguments (in `inputs` order). */
  call(args: Value[]): Iterable<Value[]>;
}

export type Procedures = ReadonlyMap<string, Procedure>;

/** Whether `v` fits a declared type; FLOAT also takes an INTEGER (widened by `coerce`). */
export function fitsType(type: string, v: Value): boolean {
  const t = type.replace(/\?$/, '').toUpperCase();
  if (v === null) return true;
  switch (t) {
    case 'ANY':
      return true;
    case 'INTEGER':
      return typeof v === 'bigint';
    case 'FLOAT':
    case 'NUMBER':
      return typeof v === 'bigint' || typeof v === 'number';
    case 'STRING':
      return typeof v === 'string';
    case 'BOOLEAN':
      return typeof v === 'boolean';
    case 'MAP':
      return isMap(v);
    case 'NODE':
      return v instanceof GraphNode;
    case 'RELATIONSHIP':
      return v instanceof GraphRelationship;
    case 'PATH':
      return v instanceof PathValue;
    default:
      return t.startsWith('LIST') ? Array.isArray(v) : true;
  }
}

export function coerceArgument(field: ProcedureField, v: Value): Value {
  if (!fitsType(field.type, v)) {
    throw new CypherTypeError('InvalidArgumentType', `argument ${field.name} must be ${field.type}`);
  }
  return field.type.toUpperCase().startsWith('FLOAT') && typeof v === 'bigint' ? Number(v) : v;
}

/** The items a CALL binds: its YIELD list (YIELD * or none: every output, under its own name). */
export function yieldItems(
  yields: readonly { name: string; alias: string }[] | null,
  proc: Procedure,
): { name: string; alias: string }[] {
  if (yields === null || yields[0]?.name === '*') return proc.outputs.map((o) => ({ name: o.name, alias: o.name }));
  return [...yields];
}
