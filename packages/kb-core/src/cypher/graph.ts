// The KB's read snapshot seen through @evident/cypher's GraphReader: a node per visible entity (labels: its
// entity type as a PascalCase label, and `Entity`; `resolveLabel` maps the stored lower-case form a user may
// type to the PascalCase label), a relationship per fact (corroboration group) with a live claim, from
// subject to object, typed by the predicate name upper-cased. Nodes and relationships are built when first
// reached and kept for the one query, so the same entity is the same node within it.
import type {
  Column,
  Direction,
  GraphNode,
  GraphReader,
  GraphRelationship,
  NodeColumns,
  Properties,
  RangeBound,
  RelationshipColumns,
  Value,
} from '@evident/cypher';
import type { ReadContext } from '../graph/read.js';
import { KbNode, KbRelationship } from './graph-elements.js';
import { memoGrown } from './appended.js';
import { dictionary, grownDictionary, typeColumn } from './node-columns.js';
import { entitiesInRange, inRange, mergedOrder, orderedSubset, rangeOf } from './ordered.js';
import { factConfidence, factsOfTypes, relationshipColumns } from './rel-columns.js';
import { countLabels, ENTITY_LABEL, entityLabel, nodeLabels } from './labels.js';
import { memo, type SnapshotCache, snapshotCache } from './snapshot-cache.js';

export { ENTITY_LABEL, entityLabel } from './labels.js';

export class KbCypherGraph implements GraphReader {
  private readonly nodes = new Map<number, GraphNode>();
  private readonly rels = new Map<number, GraphRelationship>();

  /** What this snapshot's queries keep across queries (snapshot-cache.ts). */
  private readonly cache: SnapshotCache | undefined;

  constructor(private readonly rc: ReadContext) {
    this.cache = snapshotCache(rc);
  }

  /**
   * A label as typed, resolved to the label nodes carry: a stored type (`drug`, `protein_complex`) to its
   * PascalCase label, which resolves to itself, so `:drug` and `:Drug` find the same nodes.
   */
  resolveLabel(label: string): string {
    return entityLabel(label);
  }

  /** The entity id a node stands for (nodes' numeric ids are index positions, not stable across rebuilds). */
  entityIdOf(n: GraphNode): string {
    return this.rc.s.entityIds[n.id]!;
  }

  private node(e: number): GraphNode {
    let n = this.nodes.get(e);
    if (n) return n;
    // Labels: its type, and the types unified with it it was stated with (a gene also stated as a protein).
    // Properties when first read (KbNode).
    n = new KbNode(e, this.labelsOf(e), this);
    this.nodes.set(e, n);
    return n;
  }

  /** Labels per entity type (shared by the nodes of one type, which never change them). */
  private readonly typeLabels = new Map<string, string[]>();

  private labelsOf(e: number): string[] {
    const s = this.rc.s;
    if (s.entityOtherTypes.get(e)?.length) return nodeLabels(this.rc.typesOf(e));
    const t = s.entityType[e]!;
    let l = this.typeLabels.get(t);
    if (!l) {
      l = nodeLabels([t]);
      this.typeLabels.set(t, l);
    }
    return l;
  }

  /** One of entity `e`'s plain properties, as its bag has it. */
  nodeProperty(e: number, key: 'name' | 'id' | 'type' | 'claim_count'): Value {
    const s = this.rc.s;
    if (key === 'name') return s.entityName[e]!;
    if (key === 'id') return s.entityIds[e]!;
    if (key === 'type') return s.entityType[e]!;
    return BigInt(this.rc.entityClaimCount(e));
  }

  /** One of fact `f`'s properties that need no claim ids, as its bag has it. */
  relProperty(f: number, key: 'predicate' | 'predicate_class' | 'confidence' | 'source_count'): Value {
    const s = this.rc.s;
    if (key === 'predicate') return s.predName[s.factP[f]!]!;
    if (key === 'predicate_class') return s.predClass[s.factP[f]!]!;
    const lean = factConfidence(this.rc, f);
    return key === 'confidence' ? lean.confidence : BigInt(lean.sources);
  }

  /** Entity `e`'s properties (a node's bag, built when the query first reads one). */
  nodeProperties(e: number): Properties {
    const s = this.rc.s;
    return {
      id: s.entityIds[e]!,
      name: s.entityName[e]!,
      type: s.entityType[e]!,
      claim_count: BigInt(this.rc.entityClaimCount(e)),
      aliases: [...(s.entityAliases.get(e) ?? [])].sort(),
    };
  }

  private rel(f: number): GraphRelationship | undefined {
    const cached = this.rels.get(f);
    if (cached) return cached;
    const s = this.rc.s;
    if (!this.rc.factHasLive(f)) return undefined;
    const subject = s.factS[f]!;
    const p = s.factP[f]!;
    // Properties when first read (KbRelationship): a walk, a count or a grouping by type builds no bag.
    const rel = new KbRelationship(f, relTypes(s.predName)[p]!, this.node(subject), this.node(s.factO[f]!), this);
    this.rels.set(f, rel);
    return rel;
  }

  /**
   * Fact `f`'s properties, in the order results show them: the predicate's names, the noisy-OR confidence and
   * sources, the claim ids, content id and first time (a relationship's bag, built when the query first reads
   * one; plain data, as accessors per bag cost more than computing them).
   */
  relProperties(f: number): Properties {
    const s = this.rc.s;
    const p = s.factP[f]!;
    const lean = factConfidence(this.rc, f);
    // The live claims' ids and first time in one pass (what rc.relationship gives, without its far end's summary).
    const ids: string[] = [];
    let first = Number.POSITIVE_INFINITY;
    for (let c = s.factFirst[f]!; c >= 0; c = s.claimNextInFact[c]!) {
      if (!this.rc.isLive(c)) continue;
      ids.push(s.claimIdOf(c));
      if (s.claimTs[c]! < first) first = s.claimTs[c]!;
    }
    return {
      predicate: s.predName[p]!,
      predicate_class: s.predClass[p]!,
      confidence: lean.confidence,
      source_count: BigInt(lean.sources),
      content_id: ids.length > 0 ? s.contentIdOfFact(f) : null,
      claim_ids: ids.length > 0 ? ids : null,
      created_at: ids.length > 0 ? new Date(first).toISOString() : null,
    };
  }

  /** Whether entity `e` carries `label`: one of its types as stored or as its PascalCase label. */
  private hasLabel(e: number, label: string): boolean {
    const s = this.rc.s;
    const t = s.entityType[e]!;
    if (t === label || entityLabel(t) === label) return true;
    const others = s.entityOtherTypes.get(e);
    return others?.some((o) => o === label || entityLabel(o) === label) ?? false;
  }

  *scanNodes(label?: string): Iterable<GraphNode> {
    const any = label === undefined || label === ENTITY_LABEL;
    for (const e of this.rc.visibleEntities()) if (any || this.hasLabel(e, label)) yield this.node(e);
  }

  /**
   * The visible entities as columns, read straight from the index's arrays: `claim_count` is the live
   * counter array itself (counted per entity for an at(t) view), `type`, `id` and `name` are
   * dictionary-encoded. `aliases` (a list) has no column: such a query runs row by row.
   */
  scanColumns(label: string | undefined, keys: readonly string[]): NodeColumns | undefined {
    const s = this.rc.s;
    const n = s.entityIds.length;
    const counts = this.claimCounts();
    const at = labelKey(label);
    const picked = this.labelRows(label);
    const columns: Record<string, Column> = {};
    for (const key of keys) {
      if (key === 'claim_count') columns[key] = { kind: 'int', values: counts };
      else if (key === 'type') columns[key] = typeColumn(s.entityType);
      else if (key === 'id' || key === 'name') {
        const values = key === 'id' ? s.entityIds : s.entityName;
        columns[key] = memoGrown(
          this.rc,
          this.cache,
          `${key}${at}`,
          () => dictionary(values, picked),
          (old, a) => grownDictionary(old, values, picked.subarray(firstFrom(picked, a.mark.entities))),
        );
      } else return undefined;
    }
    return { rows: picked, size: n, columns, node: (e) => this.node(e) };
  }

  /** Live claims per entity: the live counter array itself, or counted per entity for an at(t) view. */
  private claimCounts(): Int32Array {
    const rc = this.rc;
    if (rc.live) return rc.s.entityActive;
    const n = rc.s.entityIds.length;
    return memo(this.cache, 'counts', () => Int32Array.from({ length: n }, (_, e) => rc.entityClaimCount(e)));
  }

  /** The visible entities carrying `label` (all visible ones for `Entity` or none), in entity order. */
  private labelRows(label: string | undefined): Int32Array {
    const any = label === undefined || label === ENTITY_LABEL;
    const pick = (from: number, before: Int32Array) => {
      const counts = this.claimCounts();
      const n = this.rc.s.entityIds.length;
      const rows = new Int32Array(before.length + n - from);
      rows.set(before);
      let m = before.length;
      for (let e = from; e < n; e++) if (counts[e]! > 0 && (any || this.hasLabel(e, label))) rows[m++] = e;
      return rows.slice(0, m);
    };
    // Only appended since the last kept rows: the entities added since, after them (entity order holds).
    return memoGrown(
      this.rc,
      this.cache,
      `rows${labelKey(label)}`,
      () => pick(0, new Int32Array(0)),
      (old, a) => pick(a.mark.entities, old),
    );
  }

  /** The live facts as columns, ends as entity indexes (the slots of scanColumns): rel-columns.ts. */
  scanRelationshipColumns(types: readonly string[], keys: readonly string[]): RelationshipColumns | undefined {
    return relationshipColumns(this.rc, relTypes(this.rc.s.predName), types, keys, this.cache);
  }

  /** The live facts of the predicates `types` name, as relationships (a pattern started at a rare type). */
  *scanRelationships(types: readonly string[]): Iterable<GraphRelationship> {
    for (const f of factsOfTypes(this.rc, relTypes(this.rc.s.predName), types, this.cache)) {
      const r = this.rel(f);
      if (r) yield r;
    }
  }

  private labelCounts?: Map<string, number>;

  /** Exact, for this query's view: the visible entities, by label (counted once per snapshot version). */
  countNodes(label?: string): number {
    this.labelCounts ??= memoGrown(
      this.rc,
      this.cache,
      'labels',
      () => countLabels(this.rc),
      (old, a) => countLabels(this.rc, a.mark.entities, old),
    );
    return this.labelCounts.get(label ?? ENTITY_LABEL) ?? 0;
  }

  /** For the planner: the base's label counts, kept across queries while the base stays about the same size. */
  estimateNodes(label?: string): number {
    const s = this.rc.s;
    let e = estimates.get(s);
    const n = s.entityIds.length;
    if (!e || Math.abs(e.entities - n) > 0.1 * e.entities) {
      e = { entities: n, labels: countLabels(this.rc), facts: -1, predicates: new Map() };
      estimates.set(s, e);
    }
    return e.labels.get(label ?? ENTITY_LABEL) ?? 0;
  }

  /** Facts of a predicate (upper-cased, as relationship types are), counted once while the base is about the same size. */
  countRelationships(type?: string): number {
    const s = this.rc.s;
    this.estimateNodes();
    const e = estimates.get(s)!;
    const facts = s.factCount;
    if (type === undefined) return facts;
    if (Math.abs(e.facts - facts) > 0.1 * e.facts || e.facts < 0) {
      const counts = new Int32Array(s.predName.length);
      for (let f = 0; f < facts; f++) counts[s.factP[f]!]!++;
      e.predicates = new Map(s.predName.map((p, i) => [p.toUpperCase(), counts[i]!]));
      e.facts = facts;
    }
    return e.predicates.get(type) ?? 0;
  }

  /** `id` is the entity index (one node per value); `id` and `name` have ordered indexes (ordered.ts). */
  countNodesWhere(_label: string | undefined, key: string): number | undefined {
    return key === 'id' || key === 'name' ? 1 : undefined;
  }

  findNodes(label: string | undefined, key: string, value: Value): Iterable<GraphNode> | undefined {
    if (key === 'name')
      return this.findNodesInRange(label, key, { value, inclusive: true }, { value, inclusive: true });
    if (key !== 'id' || typeof value !== 'string') return undefined;
    const e = this.rc.s.entityIndex.get(value);
    if (e === undefined || this.rc.entityClaimCount(e) === 0) return [];
    const n = this.node(e);
    return label === undefined || n.labels.includes(label) ? [n] : [];
  }

  /** Visible entities whose `id` or `name` lies in the range, by the ordered indexes. */
  *findNodesInRange(
    label: string | undefined,
    key: string,
    lower: RangeBound | undefined,
    upper: RangeBound | undefined,
  ): Iterable<GraphNode> {
    const s = this.rc.s;
    const values = key === 'id' ? s.entityIds : key === 'name' ? s.entityName : undefined;
    if (!values) return;
    const any = label === undefined || label === ENTITY_LABEL;
    if (this.cache) {
      // The label's visible entities in value order, kept per snapshot: the range visits only them (a range
      // over every entity's names would test thousands of other labels' entities for each one kept).
      for (const e of inRange(values, this.labelOrder(key, values, label), lower, upper)) yield this.node(e);
      return;
    }
    for (const e of entitiesInRange(values, lower, upper)) {
      if (this.rc.entityClaimCount(e) > 0 && (any || this.hasLabel(e, label))) yield this.node(e);
    }
  }

  /**
   * findNodesInRange's entities as slots (entity indexes), from the label's order kept per snapshot; undefined
   * without a snapshot cache (the order would be built per query) or for a key with no index.
   */
  findSlotsInRange(
    label: string | undefined,
    key: string,
    lower: RangeBound | undefined,
    upper: RangeBound | undefined,
  ): Int32Array | undefined {
    const values = key === 'id' ? this.rc.s.entityIds : key === 'name' ? this.rc.s.entityName : undefined;
    if (!values || !this.cache) return undefined;
    const v = lower?.value;
    if (key === 'id' && typeof v === 'string' && lower!.inclusive && upper?.inclusive && upper.value === v) {
      // One id: the id map, not the label's order.
      const e = this.rc.s.entityIndex.get(v);
      const any = label === undefined || label === ENTITY_LABEL;
      const hit = e !== undefined && this.rc.entityClaimCount(e) > 0 && (any || this.hasLabel(e, label));
      return hit ? Int32Array.of(e) : new Int32Array(0);
    }
    return rangeOf(values, this.labelOrder(key, values, label), lower, upper);
  }

  /** The label's visible entities in `key`'s value order, kept per snapshot (ordered.ts). */
  private labelOrder(key: string, values: readonly string[], label: string | undefined): Int32Array {
    const rows = this.labelRows(label);
    return memoGrown(
      this.rc,
      this.cache,
      `order\u0000${key}${labelKey(label)}`,
      () => {
        const member = new Uint8Array(values.length);
        for (const e of rows) member[e] = 1;
        return orderedSubset(values, member);
      },
      // The label's entities added since, merged in.
      (old, a) => mergedOrder(values, old, Array.from(rows.subarray(firstFrom(rows, a.mark.entities)))),
    );
  }

  private codes?: { types: readonly string[]; want: Uint8Array };

  /** 1 for the predicates of one of `types` (kept for the last types asked: an expansion asks again per row). */
  private predicateCodes(types: readonly string[]): Uint8Array {
    const names = relTypes(this.rc.s.predName);
    const c = this.codes;
    if (c && c.types === types && c.want.length === names.length) return c.want;
    const want = new Uint8Array(names.length);
    names.forEach((t, p) => {
      if (types.includes(t)) want[p] = 1;
    });
    this.codes = { types, want };
    return want;
  }

  /** The node of entity `e` (slots are entity indexes). */
  nodeAt(e: number): GraphNode {
    return this.node(e);
  }

  /** A node's slot is its entity index. */
  slotOf(node: GraphNode): number {
    return node.id;
  }

  private far = new Int32Array(64);

  /** The far ends (entity indexes) of the node's live facts in `direction` of `types`: no relationship objects. */
  adjacent(node: GraphNode | number, direction: Direction, types: readonly string[]): ArrayLike<number> {
    const s = this.rc.s;
    const e = typeof node === 'number' ? node : node.id;
    const want = types.length === 0 ? undefined : this.predicateCodes(types);
    let n = 0;
    for (let f = s.firstFact(e); f >= 0; f = s.nextFact(f, e)) {
      const out = s.factS[f] === e;
      if (direction === 'out' ? !out : direction === 'in' ? s.factO[f] !== e : false) continue;
      if ((want && want[s.factP[f]!] !== 1) || !this.rc.factHasLive(f)) continue;
      if (n === this.far.length) {
        const grown = new Int32Array(n * 2);
        grown.set(this.far);
        this.far = grown;
      }
      this.far[n++] = out ? s.factO[f]! : s.factS[f]!;
    }
    return this.far.subarray(0, n);
  }

  *expand(node: GraphNode, direction: Direction, types: readonly string[]): Iterable<GraphRelationship> {
    const s = this.rc.s;
    const e = node.id;
    // Types as predicate codes, once per call: the walk compares integers.
    const want = types.length === 0 ? undefined : this.predicateCodes(types);
    for (let f = s.firstFact(e); f >= 0; f = s.nextFact(f, e)) {
      const out = s.factS[f] === e;
      const inc = s.factO[f] === e;
      if (direction === 'out' ? !out : direction === 'in' ? !inc : false) continue;
      if (want && want[s.factP[f]!] !== 1) continue;
      const r = this.rel(f);
      if (r) yield r;
    }
  }
}

/** The first position of the ascending `rows` at or past entity `e`. */
function firstFrom(rows: Int32Array, e: number): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (rows[mid]! < e) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The snapshot cache's key part for a label (`Entity` and none are every visible entity). */
const labelKey = (label: string | undefined) => `\u0000${label === undefined || label === ENTITY_LABEL ? '' : label}`;

// Relationship types (predicate names upper-cased) per predicate array, extended as predicates are added.
const typeNames = new WeakMap<readonly string[], string[]>();

function relTypes(preds: readonly string[]): string[] {
  let t = typeNames.get(preds);
  if (!t) {
    t = [];
    typeNames.set(preds, t);
  }
  for (let p = t.length; p < preds.length; p++) t.push(preds[p]!.toUpperCase());
  return t;
}

// Planner estimates per base (its state object), refreshed when the base has grown or shrunk by a tenth.
const estimates = new WeakMap<
  object,
  { entities: number; labels: Map<string, number>; facts: number; predicates: Map<string, number> }
>();
