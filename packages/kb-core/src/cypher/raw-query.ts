// rawQuery: a read-only openCypher query over the KB's graph (graph.ts), with a time budget and a row budget.
// Results come back as JSON-able data: nodes and relationships carry the KB's ids (entity id, content id).
import { compile, GraphNode, GraphRelationship, PathValue, runCypher, type Value } from '@evident/cypher';
import { KbError, KbValidationError } from '../errors.js';
import type { ReadContext } from '../graph/read.js';
import { KbCypherGraph } from './graph.js';

export interface RawQueryOptions {
  /** Cancel after this many milliseconds (default 30 000). */
  timeout_ms?: number;
  /** Refuse a result with more rows (default 10 000). */
  max_rows?: number;
  /**
   * Run on the base's replica thread (src/offload/README.md) rather than the caller's: the caller's event loop
   * stays free, and a query past its budget or its thread's heap cap is stopped and its memory given back.
   * What servers use. Default false (a small query answers sooner on the caller's thread).
   */
  off_thread?: boolean;
}

export interface RawQueryResult {
  columns: string[];
  rows: unknown[][];
  stats: { rows: number; elapsed_ms: number };
}

export const RAW_QUERY_DEFAULTS = { timeout_ms: 30_000, max_rows: 10_000 };

/** A write clause in rawQuery: the KB is written through claims, never through Cypher. */
export class KbCypherReadOnlyError extends KbError {
  constructor(clause: string) {
    super(
      'cypher_read_only',
      `rawQuery is read-only: ${clause} is refused; write through claims (ingest, ingestBatch, retract)`,
      { status: 400, problems: [{ path: '/cypher', message: `${clause} is a write clause` }] },
    );
  }
}

const WRITES: Record<string, string> = {
  create: 'CREATE',
  merge: 'MERGE',
  set: 'SET',
  remove: 'REMOVE',
  delete: 'DELETE',
};

function budget(v: unknown, field: string, dflt: number): number {
  if (v === undefined) return dflt;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) {
    throw new KbValidationError('out_of_range', field, 'must be a positive integer');
  }
  return v;
}

/** JSON parameters → Cypher values: whole numbers are INTEGERs, as a Cypher user writing `LIMIT $n` expects. */
function param(v: unknown): unknown {
  if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v);
  if (Array.isArray(v)) return v.map(param);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, param(x)]));
  return v;
}

function out(v: Value, g: KbCypherGraph): unknown {
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map((x) => out(x, g));
  if (v instanceof GraphNode) {
    return { kind: 'node', id: g.entityIdOf(v), labels: [...v.labels], properties: out(v.properties as Value, g) };
  }
  if (v instanceof GraphRelationship) {
    return {
      kind: 'relationship',
      id: v.properties.content_id,
      type: v.type,
      start: g.entityIdOf(v.start),
      end: g.entityIdOf(v.end),
      properties: out(v.properties as Value, g),
    };
  }
  if (v instanceof PathValue) {
    return { kind: 'path', nodes: v.nodes.map((n) => out(n, g)), relationships: v.rels.map((r) => out(r, g)) };
  }
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, out(x, g)]));
}

/** rawQuery's arguments checked (KbValidationError naming the field), with the budgets it runs under. */
export function checkRawQuery(
  cypher: unknown,
  params: unknown,
  options: RawQueryOptions,
): { cypher: string; params: Record<string, unknown>; timeoutMs: number; maxRows: number } {
  if (typeof cypher !== 'string' || cypher.trim() === '') {
    throw new KbValidationError('invalid_type', 'cypher', 'must be a non-empty Cypher query');
  }
  if (params === null || typeof params !== 'object' || Array.isArray(params)) {
    throw new KbValidationError('invalid_type', 'params', 'must be an object of named parameters');
  }
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new KbValidationError('invalid_type', 'options', 'must be an object { timeout_ms?, max_rows?, off_thread? }');
  }
  if (options.off_thread !== undefined && typeof options.off_thread !== 'boolean') {
    throw new KbValidationError('invalid_type', 'off_thread', 'must be true or false');
  }
  return {
    cypher,
    params: params as Record<string, unknown>,
    timeoutMs: budget(options.timeout_ms, 'timeout_ms', RAW_QUERY_DEFAULTS.timeout_ms),
    maxRows: budget(options.max_rows, 'max_rows', RAW_QUERY_DEFAULTS.max_rows),
  };
}

export function rawQuery(
  rc: ReadContext,
  cypherIn: unknown,
  paramsIn: unknown = {},
  options: RawQueryOptions = {},
): RawQueryResult {
  const { cypher, params, timeoutMs, maxRows } = checkRawQuery(cypherIn, paramsIn, options);
  const q = compile(cypher);
  for (const part of q.parts) {
    for (const c of part.clauses) if (c.kind in WRITES) throw new KbCypherReadOnlyError(WRITES[c.kind]!);
  }
  const started = performance.now();
  const g = new KbCypherGraph(rc);
  const r = runCypher(g, cypher, param(params) as Record<string, unknown>, { timeoutMs, maxRows });
  const rows = r.rows.map((row) => row.map((v) => out(v, g)));
  return { columns: r.columns, rows, stats: { rows: rows.length, elapsed_ms: performance.now() - started } };
}
