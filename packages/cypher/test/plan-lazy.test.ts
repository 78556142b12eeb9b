// Values carried without being built: property bags read only when a query reads a property (GraphNode /
// GraphRelationship loadProperties), a named relationship nothing reads expanded by adjacency (no relationship
// value at all), and a pattern predicate asked once per distinct node. Each against the interpreter's rows.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  type Direction,
  GraphNode,
  type GraphReader,
  GraphRelationship,
  type MemoryGraph,
  type Properties,
  runCypher,
} from '../src/index.js';
import { canon, operators, randomGraph, rowByRow, sortLists } from './plan-graphs.js';

type Plan = NonNullable<ReturnType<typeof runCypher>['plan']>;
const find = (p: Plan, op: string): Plan | undefined =>
  p.operator === op ? p : p.children.map((c) => find(c, op)).find((x) => x);

test('a relationship carried by a WITH and read by nothing after it is expanded by adjacency', () => {
  for (const seed of [31, 32]) {
    const g = randomGraph(seed);
    for (const q of [
      'MATCH (a:A)<-[r]-(b:A) WHERE EXISTS { (b)-->(:B) } WITH a, b, r RETURN collect(b.c) AS cs',
      'MATCH (a:B)-[r:R]-(b) WITH a, b, r RETURN b.t AS t, collect(a.c) AS cs',
      'MATCH (a {t: "gene"})-[r]->(b:B) WHERE NOT EXISTS { (b)<-[:R]-(:A) } WITH b, r RETURN collect(b.w) AS ws',
    ]) {
      const slow = runCypher(rowByRow(g), q, {}, { planner: false });
      assert.deepEqual(canon(runCypher(g, q).rows.map(sortLists)), canon(slow.rows.map(sortLists)), `${q} (${seed})`);
      // By adjacency, or walked over slots as a chain from its scan (chain-columns.ts): no relationship either way.
      const plan = runCypher(g, `EXPLAIN ${q}`).plan!;
      if (!find(plan, 'ChainProjection')) assert.match(find(plan, 'Expand')?.details ?? '', /by adjacency/, q);
    }
    // Read after the WITH (a property, the value, a uniqueness check in a longer pattern): a relationship per row.
    for (const q of [
      'MATCH (a:A)<-[r]-(b:A) WITH a, b, r RETURN count(r) AS n, collect(type(r)) AS ts',
      'MATCH (a:A)-[r]->(b)-[s]->(c:B) WITH a, c RETURN count(*) AS n',
      'MATCH (a:B)-[r:R]-(b) WITH b, r WHERE r.x IS NULL RETURN count(*) AS n',
    ]) {
      const slow = runCypher(rowByRow(g), q, {}, { planner: false });
      assert.deepEqual(canon(runCypher(g, q).rows.map(sortLists)), canon(slow.rows.map(sortLists)), `${q} (${seed})`);
      const plan = runCypher(g, `EXPLAIN ${q}`).plan!;
      const expand = find(plan, 'Expand');
      if (expand) assert.doesNotMatch(expand.details, /\[r.*by adjacency/, q);
    }
  }
});

test('a WITH that only passes variables on to a projection is dropped, and its unread relationship goes by adjacency', () => {
  for (const seed of [34, 35, 36, 37, 38]) {
    const g = randomGraph(seed);
    // Dropped: nothing after the WITH reads r, so it is expanded by adjacency.
    for (const q of [
      'MATCH (a:A)<-[r]-(b) WITH a, b, r RETURN b.c AS c, b.t AS t',
      'MATCH (a:B)-[r:R]-(b) WITH a, b, r WHERE b.c > 10 RETURN b.c AS c ORDER BY c DESC',
      'MATCH (a:A)<-[r]-(b) WITH b, r, a RETURN b.c AS c ORDER BY c SKIP 2 LIMIT 5',
      'MATCH (a:A)-[r]->(b:B) WITH a, b, r LIMIT 9 RETURN a.w AS w',
    ]) {
      const slow = runCypher(rowByRow(g), q, {}, { planner: false });
      const rows = runCypher(g, q).rows;
      if (q.includes('LIMIT 9')) {
        // LIMIT without ORDER BY: any 9 of the rows, which both run in their own order; each among the full result's.
        const all = canon(runCypher(rowByRow(g), q.replace(' LIMIT 9', ''), {}, { planner: false }).rows);
        assert.equal(rows.length, slow.rows.length, `${q} (${seed})`);
        for (const r of canon(rows)) {
          const at = all.indexOf(r);
          assert.ok(at >= 0, `${q} (${seed}): ${r} is not a row of the full result`);
          all.splice(at, 1);
        }
      } else assert.deepEqual(canon(rows), canon(slow.rows), `${q} (${seed})`);
      const plan = runCypher(g, `EXPLAIN ${q}`).plan!;
      // One projection at most (the RETURN's; none where it reads columns off a chain): the WITH's is gone.
      assert.ok(operators(plan).filter((o) => o === 'Projection').length <= 1, q);
      if (!find(plan, 'ChainProjection')) assert.match(find(plan, 'Expand')?.details ?? '', /by adjacency/, q);
    }
    // Kept, or dropped without changing the answer: a renaming, a DISTINCT, r read after it, a name bound again.
    for (const q of [
      'MATCH (a:A)<-[r]-(b) WITH a, b AS x, r RETURN x.c AS c',
      'MATCH (a:A)-[r]->(b) WITH DISTINCT a, b RETURN a.c AS ac, b.c AS bc',
      'MATCH (a:A)<-[r]-(b) WITH a, b, r RETURN b.c AS c, r.x AS x',
      'MATCH (a:A)<-[r]-(b) WITH a, b, r ORDER BY b.c DESC LIMIT 7 RETURN b.c AS c',
      'MATCH (a:A)-[r]->(b) WITH a MATCH (a)<-[s]-(b) WITH a, b RETURN a.c AS ac, b.c AS bc',
    ]) {
      const slow = runCypher(rowByRow(g), q, {}, { planner: false });
      assert.deepEqual(canon(runCypher(g, q).rows), canon(slow.rows), `${q} (${seed})`);
    }
  }
});

test('a pattern predicate on a node is asked once per distinct node, with the row-by-row results', () => {
  const g = randomGraph(33);
  let asked = 0;
  const counting: GraphReader = {
    scanNodes: (l) => g.scanNodes(l),
    expand: (n, d, t) => g.expand(n, d, t),
    scanColumns: (l, k) => g.scanColumns(l, k),
    nodeAt: (s) => g.nodeAt(s),
    adjacent: (n: GraphNode | number, d: Direction, t: readonly string[]) => {
      asked++;
      return g.adjacent(n, d, t);
    },
  };
  const q = 'MATCH (a:A)-[r]-(b) WHERE EXISTS { (b)-[:S]->(:A) } RETURN a.c AS c, r.x AS x, b.w AS w';
  const rows = runCypher(counting, q).rows;
  const distinct = runCypher(g, 'MATCH (a:A)-[r]-(b) RETURN count(DISTINCT b) AS n').rows[0]![0];
  assert.ok(operators(runCypher(g, `EXPLAIN ${q}`).plan!).includes('ExpandExists'));
  assert.equal(BigInt(asked), distinct, 'one adjacency per distinct node');
  assert.deepEqual(canon(rows), canon(runCypher(rowByRow(g), q, {}, { planner: false }).rows));
});

// A graph whose nodes and relationships build their property bags when first read, counting the bags built.
class LazyNode extends GraphNode {
  constructor(
    id: number,
    labels: string[],
    private readonly source: LazyGraph,
  ) {
    super(id, labels);
  }
  protected override loadProperties(): Properties {
    this.source.built++;
    return { ...this.source.original(this.id).properties };
  }
}

class LazyRel extends GraphRelationship {
  constructor(
    r: GraphRelationship,
    start: GraphNode,
    end: GraphNode,
    private readonly source: LazyGraph,
  ) {
    super(r.id, r.type, start, end);
  }
  protected override loadProperties(): Properties {
    this.source.built++;
    return { weight: BigInt(this.id % 7) };
  }
}

class LazyGraph implements GraphReader {
  built = 0;
  private readonly nodes = new Map<number, LazyNode>();
  private readonly rels = new Map<number, LazyRel>();
  private readonly byId = new Map<number, GraphNode>();
  constructor(readonly g: MemoryGraph) {
    for (const n of g.scanNodes()) this.byId.set(n.id, n);
  }
  original(id: number): GraphNode {
    return this.byId.get(id)!;
  }
  private node(n: GraphNode): LazyNode {
    let x = this.nodes.get(n.id);
    if (!x) {
      x = new LazyNode(n.id, n.labels, this);
      this.nodes.set(n.id, x);
    }
    return x;
  }
  private rel(r: GraphRelationship): LazyRel {
    let x = this.rels.get(r.id);
    if (!x) {
      x = new LazyRel(r, this.node(r.start), this.node(r.end), this);
      this.rels.set(r.id, x);
    }
    return x;
  }
  *scanNodes(label?: string) {
    for (const n of this.g.scanNodes(label)) yield this.node(n);
  }
  *expand(n: GraphNode, d: Direction, t: readonly string[]) {
    for (const r of this.g.expand(this.original(n.id), d, t)) yield this.rel(r);
  }
}

test('property bags left out are built when first read, once per node or relationship', () => {
  const mem = randomGraph(34);
  const lazy = new LazyGraph(mem);
  const walk = runCypher(lazy, 'MATCH (a:A)-[r:R]->(b:B) RETURN count(*) AS n, collect(type(r))[0] AS t');
  assert.equal(lazy.built, 0, 'labels, types and counts read no bag');
  assert.ok((walk.rows[0]![0] as bigint) > 0n);
  const q = 'MATCH (a:A)-[r:R]->(b:B) WHERE b.c > 100 RETURN a.c AS c, r.weight AS w ORDER BY c, w';
  const got = runCypher(lazy, q).rows;
  const bs = runCypher(mem, 'MATCH (:A)-[:R]->(b:B) RETURN count(DISTINCT b) AS n').rows[0]![0] as bigint;
  assert.ok(lazy.built <= Number(bs) + got.length * 2, `${lazy.built} bags for ${got.length} rows`);
  const again = lazy.built;
  runCypher(lazy, q);
  assert.equal(lazy.built, again, 'kept by the graph: read once');
  // The same values as bags given up front.
  const eager = runCypher(mem, 'MATCH (a:A)-[r:R]->(b:B) WHERE b.c > 100 RETURN a.c AS c, r.id AS w ORDER BY c, w');
  assert.equal(got.length, eager.rows.length);
  assert.deepEqual(
    got.map((r) => r[0]),
    eager.rows.map((r) => r[0]),
  );
});

test('labels on the ends of a RelationshipScan are tested before a row is built, with the row-by-row results', () => {
  for (const seed of [35, 36]) {
    const g = randomGraph(seed);
    const nodes = [...g.nodes];
    for (let i = 0; i < 14; i++) g.createRelationship('RARE', nodes[(i * 41) % 300]!, nodes[(i * 13 + 3) % 300]!, {});
    g.createRelationship('RARE', nodes[9]!, nodes[9]!, {});
    for (const q of [
      'MATCH (a:A)-[r:RARE]->(b:B) RETURN a.c AS a, b.c AS b ORDER BY a, b',
      'MATCH (a:B)<-[r:RARE]-(b) WHERE b.c > 0 RETURN b.c AS b, r.x AS x',
      'MATCH (a:A)-[:RARE]-(b:A) RETURN a.c AS a, b.c AS b',
    ]) {
      const slow = runCypher(rowByRow(g), q, {}, { planner: false });
      assert.deepEqual(canon(runCypher(g, q).rows), canon(slow.rows), `${q} (${seed})`);
      const plan = runCypher(g, `PROFILE ${q}`).plan!;
      // A scan of the type's relationships, or a chain read from their columns (chain-columns.ts).
      const scan = find(plan, 'RelationshipScan') ?? find(plan, 'ChainProjection');
      assert.ok(scan && (scan.operator === 'RelationshipScan' || scan.details.startsWith('relationships ')), q);
      // The labels are the scan's: no Filter tests them after it, and it gives only the rows that carry them.
      assert.match(scan.details, /\(a:[AB]\)/, q);
      assert.ok(!/a:[AB]/.test(find(plan, 'Filter')?.details ?? ''), q);
      assert.ok(scan.rows! <= 30, `${q}: ${scan.rows} rows`);
    }
  }
});

test('past a few hundred distinct nodes a pattern predicate reads every slot from one pass, with the row-by-row results', () => {
  for (const seed of [34, 35]) {
    const g = randomGraph(seed);
    let asked = 0;
    // The Expands read their relationship: every adjacency call is the pattern predicate's.
    const counting: GraphReader = {
      scanNodes: (l) => g.scanNodes(l),
      expand: (n, d, t) => g.expand(n, d, t),
      scanColumns: (l, k) => g.scanColumns(l, k),
      scanRelationshipColumns: (t, k) => g.scanRelationshipColumns(t, k),
      nodeAt: (s) => g.nodeAt(s),
      slotOf: (n) => g.slotOf(n),
      adjacent: (n: GraphNode | number, d: Direction, t: readonly string[]) => {
        asked++;
        return g.adjacent(n, d, t);
      },
    };
    for (const q of [
      'MATCH (a)-[r]-(b) WHERE EXISTS { (b)-[:S]->(:A) } RETURN a.c AS c, r.x AS x, b.w AS w',
      'MATCH (a)-[r]->(b) WHERE NOT EXISTS { (b)<--(:B) } RETURN a.c AS c, r.x AS x, b.c AS d',
      'MATCH (a)-[r]-(b) WHERE EXISTS { (b)--() } AND b.c > 0 RETURN sum(r.x) AS n',
    ]) {
      asked = 0;
      const rows = runCypher(counting, q).rows;
      const distinct = runCypher(g, q.replace(/WHERE.*RETURN.*/, 'RETURN count(DISTINCT b) AS n'))
        .rows[0]![0] as bigint;
      assert.ok(distinct > 256n && BigInt(asked) < distinct, `${q}: ${asked} adjacency calls, ${distinct} nodes`);
      assert.deepEqual(canon(rows), canon(runCypher(rowByRow(g), q, {}, { planner: false }).rows), q);
    }
  }
});
