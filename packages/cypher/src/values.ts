import { CypherLimitError } from './errors.js';
import { DurationValue, TemporalValue } from './temporal.js';

// Cypher values in JavaScript. INTEGER is a bigint (64-bit, so 1 and 1.0 stay apart and overflow is caught),
// FLOAT a number, a map a plain object; nodes, relationships and paths are class instances so that a map can
// never be mistaken for one.

export type Value =
  | null
  | boolean
  | bigint
  | number
  | string
  | Value[]
  | CypherMap
  | GraphNode
  | GraphRelationship
  | PathValue
  | TemporalValue
  | DurationValue;

export interface CypherMap {
  [key: string]: Value;
}

export type Properties = Record<string, Value>;

/**
 * What nodes and relationships share: a property bag that a graph may leave out and build in `loadProperties`
 * when first read, so an element only passed along, counted or tested for labels costs no bag.
 */
abstract class PropertyHolder {
  deleted = false;
  #properties: Properties | undefined;
  constructor(properties?: Properties) {
    this.#properties = properties;
  }
  get properties(): Properties {
    this.#properties ??= this.loadProperties();
    return this.#properties;
  }
  set properties(p: Properties) {
    this.#properties = p;
  }
  protected loadProperties(): Properties {
    return {};
  }
  /** The property `key`, undefined when absent (a graph may answer one key without building the bag). */
  property(key: string): Value | undefined {
    return ownValue(this.properties, key);
  }
}

/** A node of a graph. A graph implementation owns these objects; the engine only reads them. */
export class GraphNode extends PropertyHolder {
  constructor(
    readonly id: number,
    public labels: string[],
    properties?: Properties,
  ) {
    super(properties);
  }
}

/** A relationship from `start` to `end`; `properties` as GraphNode's (built when first read if left out). */
export class GraphRelationship extends PropertyHolder {
  constructor(
    readonly id: number,
    readonly type: string,
    readonly start: GraphNode,
    readonly end: GraphNode,
    properties?: Properties,
  ) {
    super(properties);
  }
}

/** A path: nodes[i] -rels[i]- nodes[i+1]; a relationship may point either way. */
export class PathValue {
  constructor(
    readonly nodes: GraphNode[],
    readonly rels: GraphRelationship[],
  ) {}
}

export const INT64_MAX = 9223372036854775807n;
export const INT64_MIN = -9223372036854775808n;

/**
 * An own property of a map, a row or a property bag, never one inherited from Object.prototype: a query or a
 * parameter named `constructor` or `toString` reads what the caller gave, or nothing.
 */
export function ownValue<T>(o: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(o, key) ? o[key] : undefined;
}

/** Sets `key` as an own, enumerable property; a plain assignment of `__proto__` would set the prototype. */
export function setOwn<T>(o: Record<string, T>, key: string, v: NoInfer<T>): void {
  if (key === '__proto__')
    Object.defineProperty(o, key, { value: v, writable: true, enumerable: true, configurable: true });
  else o[key] = v;
}

export function isMap(v: unknown): v is CypherMap {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

export { DurationValue, TemporalValue };

export const isNumber = (v: unknown): v is bigint | number => typeof v === 'bigint' || typeof v === 'number';

/** The Cypher type name of a value, as error messages and the TCK say it. */
export function typeName(v: Value | undefined): string {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'boolean') return 'BOOLEAN';
  if (typeof v === 'bigint') return 'INTEGER';
  if (typeof v === 'number') return 'FLOAT';
  if (typeof v === 'string') return 'STRING';
  if (Array.isArray(v)) return 'LIST';
  if (v instanceof GraphNode) return 'NODE';
  if (v instanceof GraphRelationship) return 'RELATIONSHIP';
  if (v instanceof PathValue) return 'PATH';
  if (v instanceof TemporalValue) return v.kind.toUpperCase();
  if (v instanceof DurationValue) return 'DURATION';
  return 'MAP';
}

/** Values nested deeper than this are refused: equality, ordering and conversion recurse once per level. */
export const MAX_VALUE_DEPTH = 1000;

/**
 * A JavaScript value (from parameters or a caller) → a Cypher value: whole numbers stay FLOAT unless bigint.
 * Deeper than MAX_VALUE_DEPTH is `cypher_value_too_deep`.
 */
export function fromJs(v: unknown, depth = 0): Value {
  if (v === null || v === undefined) return null;
  if (typeof v === 'boolean' || typeof v === 'bigint' || typeof v === 'number' || typeof v === 'string') return v;
  if (depth >= MAX_VALUE_DEPTH) {
    throw new CypherLimitError(
      'cypher_value_too_deep',
      'max_value_depth',
      MAX_VALUE_DEPTH,
      `a value nests deeper than max_value_depth ${MAX_VALUE_DEPTH} levels`,
    );
  }
  if (Array.isArray(v)) return v.map((x) => fromJs(x, depth + 1));
  if (v instanceof GraphNode || v instanceof GraphRelationship || v instanceof PathValue) return v;
  if (v instanceof TemporalValue || v instanceof DurationValue) return v;
  if (typeof v === 'object') {
    const out: CypherMap = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) setOwn(out, k, fromJs(x, depth + 1));
    return out;
  }
  return String(v);
}

/** A Cypher value → plain JSON-able data: integers as numbers when safe, else as strings. */
export function toJs(v: Value): unknown {
  if (typeof v === 'bigint') {
    return v <= BigInt(Number.MAX_SAFE_INTEGER) && v >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(v) : v.toString();
  }
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(toJs);
  if (v instanceof GraphNode) return { id: v.id, labels: [...v.labels], properties: toJs(v.properties as Value) };
  if (v instanceof GraphRelationship) {
    return { id: v.id, type: v.type, start: v.start.id, end: v.end.id, properties: toJs(v.properties as Value) };
  }
  if (v instanceof PathValue) return { nodes: v.nodes.map(toJs), relationships: v.rels.map(toJs) };
  if (v instanceof TemporalValue || v instanceof DurationValue) return v.toString();
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) setOwn(out, k, toJs(x));
  return out;
}
