// An in-memory property graph: the TCK runs against it, and it serves on its own for small graphs. Nodes keep
// adjacency lists; a label index answers label scans; writes are counted as Neo4j-style statistics.
import { columnsFromNodes, columnsOf, type NodeColumns, type RelationshipColumns } from './columns.js';
import type { Direction, GraphWriter } from './graph.js';
import { GraphNode, GraphRelationship, type Properties, setOwn, type Value } from './values.js';

export interface WriteStats {
  nodes_created: number;
  nodes_deleted: number;
  relationships_created: number;
  relationships_deleted: number;
  labels_added: number;
  labels_removed: number;
  properties_set: number;
}

const emptyStats = (): WriteStats => ({
  nodes_created: 0,
  nodes_deleted: 0,
  relationships_created: 0,
  relationships_deleted: 0,
  labels_added: 0,
  labels_removed: 0,
  properties_set: 0,
});

export class MemoryGraph implements GraphWriter {
  private readonly nodeMap = new Map<number, GraphNode>();
  private readonly relMap = new Map<number, GraphRelationship>();
  private readonly out = new Map<GraphNode, Set<GraphRelationship>>();
  private readonly in = new Map<GraphNode, Set<GraphRelationship>>();
  private readonly byLabel = new Map<string, Set<GraphNode>>();
  private nextId = 0;
  stats: WriteStats = emptyStats();

  /** Returns the statistics gathered since the last call and starts counting again. */
  takeStats(): WriteStats {
    const s = this.stats;
    this.stats = emptyStats();
    return s;
  }

  get nodes(): Iterable<GraphNode> {
    return this.nodeMap.values();
  }
  get relationships(): Iterable<GraphRelationship> {
    return this.relMap.values();
  }

  *scanNodes(label?: string): Iterable<GraphNode> {
    const src = label === undefined ? this.nodeMap.values() : (this.byLabel.get(label) ?? new Set()).values();
    // A copy, so that a write while scanning does not disturb the scan.
    yield* [...src];
  }

  /** Node slots (positions among all nodes), kept until a node is created or deleted. */
  private slots?: Map<GraphNode, number>;

  private slotMap(): Map<GraphNode, number> {
    if (!this.slots) {
      this.slots = new Map();
      for (const n of this.nodeMap.values()) this.slots.set(n, this.slots.size);
    }
    return this.slots;
  }

  slotOf(node: GraphNode): number | undefined {
    return this.slotMap().get(node);
  }

  nodeAt(slot: number): GraphNode {
    this.slotMap();
    this.bySlot ??= [...this.nodeMap.values()];
    return this.bySlot[slot]!;
  }

  private bySlot?: GraphNode[];

  adjacent(at: GraphNode | number, direction: Direction, types: readonly string[]): number[] {
    const slot = this.slotMap();
    const node = typeof at === 'number' ? this.nodeAt(at) : at;
    return [...this.expand(node, direction, types)].map((r) => slot.get(r.start === node ? r.end : r.start)!);
  }

  /** Slots are positions among all nodes (so relationship columns can name their ends); a label selects rows. */
  scanColumns(label: string | undefined, keys: readonly string[]): NodeColumns | undefined {
    const all = [...this.nodeMap.values()];
    const c = columnsFromNodes(all, keys);
    if (!c || label === undefined) return c;
    const rows: number[] = [];
    all.forEach((n, i) => {
      if (n.labels.includes(label)) rows.push(i);
    });
    return { ...c, rows };
  }

  scanRelationships(types: readonly string[]): Iterable<GraphRelationship> {
    return [...this.relMap.values()].filter((r) => types.includes(r.type));
  }

  scanRelationshipColumns(types: readonly string[], keys: readonly string[]): RelationshipColumns | undefined {
    const slot = this.slotMap();
    const rels = [...this.relMap.values()].filter((r) => types.length === 0 || types.includes(r.type));
    const columns = columnsOf(rels, keys);
    const type = columnsOf(
      rels.map((r) => ({ properties: { type: r.type } })),
      ['type'],
    )?.type;
    if (!columns || !type) return undefined;
    const start = rels.map((r) => slot.get(r.start)!);
    const end = rels.map((r) => slot.get(r.end)!);
    return { size: rels.length, start, end, type, columns };
  }

  countNodes(label?: string): number {
    return label === undefined ? this.nodeMap.size : (this.byLabel.get(label)?.size ?? 0);
  }

  countRelationships(type?: string): number {
    if (type === undefined) return this.relMap.size;
    let n = 0;
    for (const r of this.relMap.values()) if (r.type === type) n++;
    return n;
  }

  *expand(node: GraphNode, direction: Direction, types: readonly string[]): Iterable<GraphRelationship> {
    const pick = (set: Set<GraphRelationship> | undefined) =>
      [...(set ?? [])].filter((r) => types.length === 0 || types.includes(r.type));
    if (direction !== 'in') yield* pick(this.out.get(node));
    if (direction !== 'out') {
      for (const r of pick(this.in.get(node))) if (direction === 'in' || r.start !== r.end) yield r;
    }
  }

  degree(node: GraphNode): number {
    return (this.out.get(node)?.size ?? 0) + (this.in.get(node)?.size ?? 0);
  }

  createNode(labels: readonly string[], properties: Properties): GraphNode {
    const node = new GraphNode(this.nextId++, [], {});
    this.nodeMap.set(node.id, node);
    this.slots = undefined;
    this.bySlot = undefined;
    this.out.set(node, new Set());
    this.in.set(node, new Set());
    this.stats.nodes_created++;
    for (const l of labels) this.addLabel(node, l);
    for (const [k, v] of Object.entries(properties)) this.setProperty(node, k, v);
    return node;
  }

  createRelationship(type: string, start: GraphNode, end: GraphNode, properties: Properties): GraphRelationship {
    const rel = new GraphRelationship(this.nextId++, type, start, end, {});
    this.relMap.set(rel.id, rel);
    this.out.get(start)?.add(rel);
    this.in.get(end)?.add(rel);
    this.stats.relationships_created++;
    for (const [k, v] of Object.entries(properties)) this.setProperty(rel, k, v);
    return rel;
  }

  setProperty(entity: GraphNode | GraphRelationship, key: string, value: Value): void {
    if (value === null) {
      delete entity.properties[key];
      return;
    }
    setOwn(entity.properties, key, value);
    this.stats.properties_set++;
  }

  addLabel(node: GraphNode, label: string): void {
    if (node.labels.includes(label)) return;
    node.labels.push(label);
    const set = this.byLabel.get(label) ?? new Set<GraphNode>();
    this.byLabel.set(label, set);
    set.add(node);
    this.stats.labels_added++;
  }

  removeLabel(node: GraphNode, label: string): void {
    const i = node.labels.indexOf(label);
    if (i < 0) return;
    node.labels.splice(i, 1);
    this.byLabel.get(label)?.delete(node);
    this.stats.labels_removed++;
  }

  deleteNode(node: GraphNode): void {
    if (node.deleted) return;
    for (const r of [...(this.out.get(node) ?? []), ...(this.in.get(node) ?? [])]) this.deleteRelationship(r);
    for (const l of node.labels) this.byLabel.get(l)?.delete(node);
    this.nodeMap.delete(node.id);
    this.slots = undefined;
    this.bySlot = undefined;
    this.out.delete(node);
    this.in.delete(node);
    node.deleted = true;
    this.stats.nodes_deleted++;
  }

  deleteRelationship(rel: GraphRelationship): void {
    if (rel.deleted) return;
    this.relMap.delete(rel.id);
    this.out.get(rel.start)?.delete(rel);
    this.in.get(rel.end)?.delete(rel);
    rel.deleted = true;
    this.stats.relationships_deleted++;
  }
}
