// rawQuery: a read-only openCypher query over the KB's graph (graph.ts), with a time budget and a row budget.
// Results come back as JSON-able data: nodes and relationships carry the KB's ids (entity id, content id).
import {
  DEFAULT_BUDGETS,
  GraphNode,
  GraphRelationship,
  MAX_NESTING,
  PathValue,
  PlanCache,
  type PlanDescription,
  prepareCypher,
  runPrepared,
  type Value,
} from '@evident/cypher';
import { KbError, KbValidationError } from '../errors.js';
import type { ReadContext } from '../graph/read.js';
import { KbCypherGraph } from './graph.js';

export interface RawQueryOptions {
  /** Cancel after this many milliseconds (default 30 000). */
  timeout_ms?: number;
  /** Refuse a result with more rows (default 10 000). */
  max_rows?: number;
  /** Refuse to build a list with more elements, e.g. a `collect` (default 1 000 000; memory stays capped). */
  max_list_size?: number;
  /**
   * Run on the base's replica thread (src/offload/README.md) rather than the caller's: the caller's event loop
   * stays free, and a query past its budget or its thread's heap cap is stopped and its memory given back.
   * What servers use. Default false (a small query answers sooner on the caller's thread).
   */
  off_thread?: boolean;
  /**
   * Run as `EXPLAIN` (plan, no rows) or `PROFILE` (run, rows and time per operator) without a prefix in the
   * text: errors keep the line and column of the text as given. A prefix in the text wins over it.
   */
  mode?: 'explain' | 'profile';
}

export interface RawQueryResult {
  columns: string[];
  rows: unknown[][];
  stats: { rows: number; elapsed_ms: number };
  /**
   * For `EXPLAIN …` (not run: no rows) and `PROFILE …` (run, with rows and time per operator): the plan tree,
   * `{ operator, details, estimated_rows, rows?, time_ms?, children }`.
   */
  plan?: PlanDescription;
}

export const RAW_QUERY_DEFAULTS = { timeout_ms: 30_000, max_rows: 10_000, max_list_size: DEFAULT_BUDGETS.maxListSize };

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

/**
 * Levels of lists and maps a parameter's value may nest: as deep as the engine's parser lets a query write a
 * literal (MAX_NESTING). Deeper is a 400 naming the limit and the path (`/params/...`) before anything walks it.
 */
export const MAX_PARAM_DEPTH = MAX_NESTING;
/** A refusal's pointer stops growing past this many characters (it then names an ancestor of the deep value). */
const MAX_POINTER_CHARS = 1000;

/**
 * The pointer of the first value in `params` nested deeper than MAX_PARAM_DEPTH, or undefined. Iterative: a
 * body's JSON.parse builds a value of any depth without recursing, and so must every walk that follows.
 */
function tooDeepParam(params: Record<string, unknown>): string | undefined {
  const stack: { v: unknown; depth: number; path: string }[] = [{ v: params, depth: 0, path: '/params' }];
  while (stack.length > 0) {
    const { v, depth, path } = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth > MAX_PARAM_DEPTH) return path;
    const entries: [string, unknown][] = Array.isArray(v) ? v.map((x, i) => [String(i), x]) : Object.entries(v);
    for (const [k, x] of entries) {
      if (x === null || typeof x !== 'object') continue;
      const p = path.length > MAX_POINTER_CHARS ? path : `${path}/${k.replaceAll('~', '~0').replaceAll('/', '~1')}`;
      stack.push({ v: x, depth: depth + 1, path: p });
    }
  }
  return undefined;
}

/** An own property, `__proto__` included (an assignment would set the object's prototype instead). */
function setOwn(o: Record<string, unknown>, key: string, v: unknown): void {
  // A defined property for that key alone: defining every key turns the objects into slow dictionaries.
  if (key === '__proto__')
    Object.defineProperty(o, key, { value: v, writable: true, enumerable: true, configurable: true });
  else o[key] = v;
}

/**
 * A tree of lists and maps converted without recursion: `convert` turns one value into either its final form
 * (`{ value }`) or a container whose members are converted in turn (`{ container, members }`, each member a key
 * of the container and the value to convert there). Values produced by a query nest as deep as the engine lets
 * them, and a recursive walk per level would take a frame or more per level of the caller's stack.
 */
type Converted =
  | { value: unknown; container?: undefined }
  | { container: unknown[] | Record<string, unknown>; members: [string | number, unknown][] };

function convertTree(root: unknown, convert: (v: unknown) => Converted): unknown {
  const box: Record<string, unknown> = {};
  const work: [unknown[] | Record<string, unknown>, string | number, unknown][] = [[box, 'root', root]];
  while (work.length > 0) {
    const [into, key, v] = work.pop()!;
    const c = convert(v);
    const result = c.container === undefined ? c.value : c.container;
    if (Array.isArray(into)) into[key as number] = result;
    else setOwn(into, key as string, result);
    if (c.container !== undefined) {
      // Keys are laid down in order first, so that filling them in any order keeps the map's key order.
      if (!Array.isArray(c.container)) for (const [k] of c.members) setOwn(c.container, k as string, null);
      for (let i = c.members.length - 1; i >= 0; i--) work.push([c.container, c.members[i]![0], c.members[i]![1]]);
    }
  }
  return box.root;
}

const listOf = (a: unknown[]): Converted => ({ container: new Array(a.length), members: a.map((x, i) => [i, x]) });
const mapOf = (entries: [string, unknown][]): Converted => ({ container: {}, members: entries });

/** JSON parameters → Cypher values: whole numbers are INTEGERs, as a Cypher user writing `LIMIT $n` expects. */
function param(v: unknown): unknown {
  return convertTree(v, (x) => {
    if (typeof x === 'number' && Number.isInteger(x)) return { value: BigInt(x) };
    if (Array.isArray(x)) return listOf(x);
    if (x !== null && typeof x === 'object') return mapOf(Object.entries(x));
    return { value: x };
  });
}

/** A list of strings, floats, booleans and nulls is already JSON-able: copied whole, not element by element. */
function plainList(a: unknown[]): Converted | undefined {
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    if (x !== null && (typeof x === 'object' || typeof x === 'bigint')) return undefined;
  }
  return { value: a.slice() };
}

/** A result value → JSON-able data with the KB's ids (nodes by entity id, relationships by content id). */
function out(v: Value, g: KbCypherGraph): unknown {
  // Most result cells are scalars: converted as they are, without a tree (and an integer converted once).
  if (typeof v === 'bigint') {
    const n = Number(v);
    return Number.isSafeInteger(n) ? n : v.toString();
  }
  if (v === null || typeof v !== 'object') return v;
  return convertTree(v, (x) => {
    if (typeof x === 'bigint') return { value: Number.isSafeInteger(Number(x)) ? Number(x) : x.toString() };
    if (x === null || typeof x !== 'object') return { value: x };
    if (Array.isArray(x)) return plainList(x) ?? listOf(x);
    if (x instanceof GraphNode) {
      return mapOf([
        ['kind', 'node'],
        ['id', g.entityIdOf(x)],
        ['labels', [...x.labels]],
        ['properties', x.properties],
      ]);
    }
    if (x instanceof GraphRelationship) {
      return mapOf([
        ['kind', 'relationship'],
        ['id', x.properties.content_id],
        ['type', x.type],
        ['start', g.entityIdOf(x.start)],
        ['end', g.entityIdOf(x.end)],
        ['properties', x.properties],
      ]);
    }
    if (x instanceof PathValue) {
      return mapOf([
        ['kind', 'path'],
        ['nodes', x.nodes],
        ['relationships', x.rels],
      ]);
    }
    return mapOf(Object.entries(x));
  });
}

/** rawQuery's arguments checked (KbValidationError naming the field), with the budgets it runs under. */
export function checkRawQuery(
  cypher: unknown,
  params: unknown,
  options: RawQueryOptions,
): {
  cypher: string;
  params: Record<string, unknown>;
  timeoutMs: number;
  maxRows: number;
  maxListSize: number;
  mode: 'explain' | 'profile' | undefined;
} {
  if (typeof cypher !== 'string' || cypher.trim() === '') {
    throw new KbValidationError('invalid_type', 'cypher', 'must be a non-empty Cypher query');
  }
  if (params === null || typeof params !== 'object' || Array.isArray(params)) {
    throw new KbValidationError('invalid_type', 'params', 'must be an object of named parameters');
  }
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new KbValidationError(
      'invalid_type',
      'options',
      'must be an object { timeout_ms?, max_rows?, max_list_size?, off_thread?, mode? }',
    );
  }
  if (options.off_thread !== undefined && typeof options.off_thread !== 'boolean') {
    throw new KbValidationError('invalid_type', 'off_thread', 'must be true or false');
  }
  if (options.mode !== undefined && options.mode !== 'explain' && options.mode !== 'profile') {
    throw new KbValidationError('invalid_value', 'mode', "must be 'explain' or 'profile'");
  }
  const deep = tooDeepParam(params as Record<string, unknown>);
  if (deep !== undefined) {
    throw new KbValidationError(
      'too_deep',
      deep,
      `nests lists and maps deeper than ${MAX_PARAM_DEPTH} levels (the limit)`,
    );
  }
  return {
    cypher,
    params: params as Record<string, unknown>,
    timeoutMs: budget(options.timeout_ms, 'timeout_ms', RAW_QUERY_DEFAULTS.timeout_ms),
    maxRows: budget(options.max_rows, 'max_rows', RAW_QUERY_DEFAULTS.max_rows),
    maxListSize: budget(options.max_list_size, 'max_list_size', RAW_QUERY_DEFAULTS.max_list_size),
    mode: options.mode,
  };
}

/** EVIDENT_CYPHER_PLAN_CACHE=0 plans every query afresh (for before/after measurements). */
const PLAN_CACHE_OFF = typeof process !== 'undefined' && process.env.EVIDENT_CYPHER_PLAN_CACHE === '0';

// One plan cache per snapshot object, weakly (as snapshot-cache.ts keeps its entries): a what-if view's graph
// and a replica thread's have their own. Every cutoff of a snapshot shares it: a plan is a function of the text
// and the counts it was chosen from, and the version key below includes the cutoff, so a cutoff of its own
// re-reads those counts before a plan made at another is used.
const planCaches = new WeakMap<object, PlanCache>();

function planCacheOf(rc: ReadContext): { planCache?: PlanCache; graphVersion?: string } {
  if (PLAN_CACHE_OFF) return {};
  let planCache = planCaches.get(rc.s);
  if (!planCache) {
    planCache = new PlanCache();
    planCaches.set(rc.s, planCache);
  }
  // No version: the cache still serves, reading the counts again on every use.
  return { planCache, graphVersion: rc.s.version === undefined ? undefined : `${rc.s.version}@${rc.cutoff}` };
}

export function rawQuery(
  rc: ReadContext,
  cypherIn: unknown,
  paramsIn: unknown = {},
  options: RawQueryOptions = {},
): RawQueryResult {
  const { cypher, params, timeoutMs, maxRows, maxListSize, mode } = checkRawQuery(cypherIn, paramsIn, options);
  const started = performance.now();
  const g = new KbCypherGraph(rc);
  // Parsed, checked and planned (or taken from the plan cache); nothing has run yet, so writes are refused here.
  const prepared = prepareCypher(g, cypher, { mode, ...planCacheOf(rc) });
  for (const part of prepared.query.parts) {
    for (const c of part.clauses) if (c.kind in WRITES) throw new KbCypherReadOnlyError(WRITES[c.kind]!);
  }
  // Each cell that is not already JSON-able (an integer, a node, a list...) is converted as the engine counts the
  // result against the budgets, in the engine's own result rows (this call's arrays): one pass over the rows.
  const r = runPrepared(g, prepared, param(params) as Record<string, unknown>, {
    timeoutMs,
    maxRows,
    maxListSize,
    cell: (v) => out(v, g),
    safeIntegers: 'number',
  });
  const rows = r.rows as unknown[][];
  const result: RawQueryResult = {
    columns: r.columns,
    rows,
    stats: { rows: rows.length, elapsed_ms: performance.now() - started },
  };
  if (r.plan) result.plan = r.plan;
  return result;
}
