// Node properties as columns: what a graph offers (GraphReader.scanColumns) so that an aggregation over one
// node pattern runs as tight loops over arrays instead of a row object per node (see plan/columnar.ts).
import { type GraphNode, ownValue, type Value } from './values.js';

/**
 * One property over the scanned slots. `dict`: dictionary-encoded (`code < 0` is null; the dictionary's
 * entries are distinct values — grouping happens on the codes). `int` / `float`: numbers (INTEGER values must
 * be safe integers); a slot whose `nulls` entry is non-zero holds null.
 */
export type Column =
  | { kind: 'dict'; codes: ArrayLike<number>; dict: readonly Value[] }
  | { kind: 'int' | 'float'; values: ArrayLike<number>; nulls?: ArrayLike<number> };

export interface NodeColumns {
  /**
   * The slots scanned, in scan order; every slot `0 … size-1` when absent. The engine keeps structures derived
   * from a scan (label memberships, an ordered copy of a column) while the graph gives the same `rows` array:
   * a graph that changes a column's arrays in place gives a new `rows` array after the change.
   */
  rows?: ArrayLike<number>;
  /** Number of slots when `rows` is absent. */
  size: number;
  /** The node at a slot, when the graph can give it: a filtered scan then builds nodes only for the slots kept. */
  node?: (slot: number) => GraphNode;
  columns: Record<string, Column>;
}

/**
 * Relationships as columns (GraphReader.scanRelationshipColumns): an aggregation over one relationship pattern
 * then runs as loops over arrays, with no relationship object or row per match. `start`/`end` are node slots of
 * the space `scanColumns` gives (the slot `rows` lists, `node(slot)` builds), so the ends' properties and labels
 * are read from node columns; `type` is the relationship type as a dictionary column; `columns` the properties
 * asked for, over relationship slots `0 … size-1`.
 */
export interface RelationshipColumns {
  size: number;
  start: ArrayLike<number>;
  end: ArrayLike<number>;
  type: Column;
  columns: Record<string, Column>;
}

/**
 * Columns built from node objects, for graphs without a columnar store (the in-memory graph): a key whose
 * values mix kinds (numbers with strings, INTEGERs with FLOATs, lists, maps…) has no column, and then the
 * whole scan is refused (`undefined`) so the query runs row by row.
 */
export function columnsFromNodes(nodes: readonly GraphNode[], keys: readonly string[]): NodeColumns | undefined {
  const columns = columnsOf(nodes, keys);
  return columns && { size: nodes.length, columns, node: (i) => nodes[i]! };
}

/** The properties `keys` of nodes or relationships as columns, or undefined when one has none. */
export function columnsOf(items: readonly Entity[], keys: readonly string[]): Record<string, Column> | undefined {
  // No prototype: a key named `constructor` is a column like any other.
  const columns: Record<string, Column> = Object.create(null);
  for (const key of keys) {
    const c = columnOf(items, key);
    if (!c) return undefined;
    columns[key] = c;
  }
  return columns;
}

type Entity = Pick<GraphNode, 'properties'>;

// Deliberate likeness (kb-core cypher/node-columns.ts typeColumn): both dictionary-encode strings; that one grows a kept
// encoding incrementally per snapshot, this one encodes a node list once.
function columnOf(nodes: readonly Entity[], key: string): Column | undefined {
  let kind: 'dict' | 'int' | 'float' | undefined;
  for (const n of nodes) {
    const v = ownValue(n.properties, key) ?? null;
    if (v === null) continue;
    const k =
      typeof v === 'string' || typeof v === 'boolean'
        ? 'dict'
        : typeof v === 'bigint' && Number.isSafeInteger(Number(v))
          ? 'int'
          : typeof v === 'number' && !Number.isNaN(v)
            ? 'float'
            : undefined;
    if (k === undefined || (kind !== undefined && k !== kind)) return undefined;
    kind = k;
  }
  if (kind === undefined || kind === 'dict') {
    const codes = new Int32Array(nodes.length);
    const dict: Value[] = [];
    const index = new Map<Value, number>();
    nodes.forEach((n, i) => {
      const v = ownValue(n.properties, key) ?? null;
      if (v === null) {
        codes[i] = -1;
        return;
      }
      let c = index.get(v);
      if (c === undefined) {
        c = dict.push(v) - 1;
        index.set(v, c);
      }
      codes[i] = c;
    });
    return { kind: 'dict', codes, dict };
  }
  const values = new Float64Array(nodes.length);
  const nulls = new Uint8Array(nodes.length);
  nodes.forEach((n, i) => {
    const v = ownValue(n.properties, key) ?? null;
    if (v === null) nulls[i] = 1;
    else values[i] = Number(v);
  });
  return { kind, values, nulls };
}
