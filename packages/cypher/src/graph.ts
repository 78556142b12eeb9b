// The small graph interface the executor runs over. A read-only graph (the KB's index) implements
// GraphReader; a graph that accepts CREATE, MERGE, SET, REMOVE and DELETE also implements GraphWriter.
import type { NodeColumns, RelationshipColumns } from './columns.js';
import type { GraphNode, GraphRelationship, Properties, Value } from './values.js';

export type Direction = 'out' | 'in' | 'both';

/** One end of a range of property values: `n.key > value` (exclusive) or `n.key >= value` (inclusive). */
export interface RangeBound {
  value: Value;
  inclusive: boolean;
}

export interface GraphReader {
  /**
   * The label the graph's nodes carry for a label a user typed (a KB answering `:drug` and `:Drug` with
   * `Drug`). Applied once to every label of a query before it is planned, so scans and label tests see only
   * carried labels. Absent: labels are taken as typed.
   */
  resolveLabel?(label: string): string;
  /** Every node, or every node carrying `label`. */
  scanNodes(label?: string): Iterable<GraphNode>;
  /**
   * Nodes (carrying `label` when given) whose property `key` equals `value`, when the graph can answer from
   * an index; `undefined` means "no index, scan instead". Candidates are checked again by the executor.
   */
  findNodes?(label: string | undefined, key: string, value: Value): Iterable<GraphNode> | undefined;
  /**
   * Nodes (carrying `label` when given) whose property `key` lies between `lower` and `upper` (either may be
   * absent), from an ordered index; `undefined` means "no index on `key`, scan instead". Offered only for
   * keys whose `countNodesWhere` answers. Candidates are checked again by the executor, so an index may give
   * more (values of other types, say) but never fewer.
   */
  findNodesInRange?(
    label: string | undefined,
    key: string,
    lower: RangeBound | undefined,
    upper: RangeBound | undefined,
  ): Iterable<GraphNode> | undefined;
  /**
   * `findNodesInRange` as slots of `scanColumns`'s node space (what `slotOf` gives), distinct, with no node
   * built per hit; `undefined`: no index on `key` (use `findNodesInRange`). Equality is the range with both
   * bounds inclusive. Candidates are checked again by the executor; the array may be the graph's own (read it only).
   */
  findSlotsInRange?(
    label: string | undefined,
    key: string,
    lower: RangeBound | undefined,
    upper: RangeBound | undefined,
  ): ArrayLike<number> | undefined;
  /**
   * The nodes `scanNodes(label)` would give, as columns of the properties `keys`, when the graph can; an
   * aggregation over one node pattern then runs over arrays (plan/columnar.ts). `undefined`: scan instead.
   */
  scanColumns?(label: string | undefined, keys: readonly string[]): NodeColumns | undefined;
  /**
   * The relationships of one of `types` (any when empty) as columns of the properties `keys`, their ends as
   * slots of `scanColumns`'s node space; `undefined`: expand node by node instead. An aggregation over one
   * relationship pattern (`MATCH (a)-[r]->(b) RETURN r.key, count(*)`) then needs no row per relationship.
   */
  scanRelationshipColumns?(types: readonly string[], keys: readonly string[]): RelationshipColumns | undefined;
  /**
   * The far ends of `node`'s (a node, or its slot) relationships in `direction` of one of `types` (any when empty), as slots of
   * `scanColumns`'s node space (a self-loop once), when the graph can give them without building
   * relationships: a pattern predicate `EXISTS { (n)-[:T]->(:L) }` is then answered from adjacency and label
   * membership. `undefined`: expand instead (a graph answers for every node or for none). The array may be
   * reused by the next call.
   */
  adjacent?(node: GraphNode | number, direction: Direction, types: readonly string[]): ArrayLike<number> | undefined;
  /** The node at a slot of `scanColumns`'s node space (with `adjacent`: an expansion builds only the far nodes). */
  nodeAt?(slot: number): GraphNode;
  /**
   * The slot of a node in `scanColumns`'s node space (with `nodeAt` and `scanRelationshipColumns`: a
   * variable-length expansion walks relationship slots, building only the end nodes it binds).
   */
  slotOf?(node: GraphNode): number | undefined;
  /**
   * The exact number of nodes carrying `label` (every node when absent): `MATCH (n:L) RETURN count(*)` is
   * answered from it, and the planner's estimates use it when `estimateNodes` is absent.
   */
  countNodes?(label?: string): number | undefined;
  /** Estimates for the planner (optional; a guess is used without them, and they may be stale). */
  estimateNodes?(label?: string): number | undefined;
  /** Relationships of `type` (every one when absent), an estimate. */
  countRelationships?(type?: string): number | undefined;
  /** How many nodes `findNodes(label, key, …)` gives for one value, on average (undefined: no index on `key`). */
  countNodesWhere?(label: string | undefined, key: string): number | undefined;
  /**
   * The relationships of one of `types` (a non-empty list), when the graph can list them without visiting every
   * node: a pattern may then start at a rare relationship type (RelationshipScan) instead of a label scan.
   */
  scanRelationships?(types: readonly string[]): Iterable<GraphRelationship> | undefined;
  /** The relationships at `node` in `direction`, of one of `types` (any type when empty). A self-loop once. */
  expand(node: GraphNode, direction: Direction, types: readonly string[]): Iterable<GraphRelationship>;
}

export interface GraphWriter extends GraphReader {
  createNode(labels: readonly string[], properties: Properties): GraphNode;
  createRelationship(type: string, start: GraphNode, end: GraphNode, properties: Properties): GraphRelationship;
  /** Sets a property; `null` removes it. */
  setProperty(entity: GraphNode | GraphRelationship, key: string, value: Value): void;
  addLabel(node: GraphNode, label: string): void;
  removeLabel(node: GraphNode, label: string): void;
  /** Deletes a node; the executor removes its relationships first (DETACH) or refuses. */
  deleteNode(node: GraphNode): void;
  deleteRelationship(rel: GraphRelationship): void;
}

export function isWritable(g: GraphReader): g is GraphWriter {
  return typeof (g as Partial<GraphWriter>).createNode === 'function';
}
