// The query shapes of the Cypher benchmark (cypher.ts), written once as a small spec and rendered twice: for
// the KB (entity types as labels, predicates as relationship types) and for Kùzu (one node table `Entity` with
// a `type` column, one relationship table `R` with a `predicate` column; labels and types become conditions
// in the same MATCH). Variants apply one clause change to a shape (WHERE, ORDER BY, LIMIT, WITH, DISTINCT,
// OPTIONAL MATCH, a pattern predicate). Held-out shapes are drawn from a seed at run time, so none is in the
// repository.
import { seededRandom } from './workload.js';

export interface NodeSpec {
  v: string;
  type?: string;
  /** Anchored by `{id: $id}`. */
  byId?: boolean;
}

export interface RelSpec {
  v?: string;
  pred?: number;
  dir: 'out' | 'in' | 'both';
  hops?: [number, number];
}

export interface Chain {
  nodes: NodeSpec[];
  rels: RelSpec[];
}

export interface Spec {
  match: Chain[];
  where: string[];
  /** `EXISTS { (v)-->(:type) }` (or NOT). */
  exists?: { v: string; type: string; negate?: boolean };
  optional?: Chain;
  /** Variables carried through a WITH between the MATCH and RETURN. */
  with?: string[];
  ret: [string, string][];
  distinct?: boolean;
  order?: string[];
  limit?: number;
}

export interface Shape {
  name: string;
  base: string;
  spec: Spec;
}

export const TYPES = ['gene', 'protein', 'disease', 'drug', 'pathway'];
const label = (t: string) => t[0]!.toUpperCase() + t.slice(1);

let anon = 0;

function chain(c: Chain, kuzu: boolean, conds: string[]): string {
  const node = (n: NodeSpec) => {
    const id = n.byId ? ' {id: $id}' : '';
    if (!kuzu) return `(${n.v}${n.type ? `:${label(n.type)}` : ''}${id})`;
    if (n.type) conds.push(`${n.v}.type = '${n.type}'`);
    return `(${n.v}:Entity${id})`;
  };
  const rel = (r: RelSpec) => {
    const hops = r.hops ? `*${r.hops[0]}..${r.hops[1]}` : '';
    let inner: string;
    if (!kuzu) inner = `${r.v ?? ''}${r.pred !== undefined ? `:REL_${r.pred}` : ''}${hops}`;
    else {
      const v = r.v ?? (r.pred !== undefined ? `_r${anon++}` : '');
      if (r.pred !== undefined) conds.push(`${v}.predicate = 'rel_${r.pred}'`);
      inner = `${v}:R${hops}`;
    }
    return r.dir === 'out' ? `-[${inner}]->` : r.dir === 'in' ? `<-[${inner}]-` : `-[${inner}]-`;
  };
  let s = node(c.nodes[0]!);
  c.rels.forEach((r, i) => {
    s += rel(r) + node(c.nodes[i + 1]!);
  });
  return s;
}

/** The query text for the KB or for Kùzu. */
export function render(spec: Spec, kuzu: boolean): string {
  const conds: string[] = [];
  const parts = spec.match.map((c) => chain(c, kuzu, conds));
  const where = [...conds, ...spec.where];
  if (spec.exists) {
    const e = spec.exists;
    const sub = kuzu
      ? `EXISTS { MATCH (${e.v})-[:R]->(_x:Entity) WHERE _x.type = '${e.type}' }`
      : `EXISTS { (${e.v})-->(:${label(e.type)}) }`;
    where.push(e.negate ? `NOT ${sub}` : sub);
  }
  let q = `MATCH ${parts.join(', ')}${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''}`;
  if (spec.optional) {
    const oc: string[] = [];
    const o = chain(spec.optional, kuzu, oc);
    q += ` OPTIONAL MATCH ${o}${oc.length > 0 ? ` WHERE ${oc.join(' AND ')}` : ''}`;
  }
  if (spec.with) q += ` WITH ${spec.with.join(', ')}`;
  q += ` RETURN ${spec.distinct ? 'DISTINCT ' : ''}${spec.ret.map(([e, a]) => `${e} AS ${a}`).join(', ')}`;
  if (spec.order) q += ` ORDER BY ${spec.order.join(', ')}`;
  if (spec.limit !== undefined) q += ` LIMIT ${spec.limit}`;
  return q;
}

export const usesId = (spec: Spec) => spec.match.some((c) => c.nodes.some((n) => n.byId));

const isAgg = (e: string) => /\b(count|avg|sum|min|max|collect)\(/i.test(e);
const named = (spec: Spec) => [
  ...new Set(
    [...spec.match, ...(spec.optional ? [spec.optional] : [])].flatMap((c) => [
      ...c.nodes.map((n) => n.v),
      ...c.rels.flatMap((r) => (r.v ? [r.v] : [])),
    ]),
  ),
];
const lastNode = (spec: Spec) => {
  const c = spec.match[spec.match.length - 1]!;
  return c.nodes[c.nodes.length - 1]!.v;
};

/** One clause changed: a variant of a shape, or undefined where the change does not apply. */
export const VARIANTS: Record<string, (s: Spec) => Spec | undefined> = {
  where: (s) => ({ ...s, where: [...s.where, `${lastNode(s)}.claim_count > 8`] }),
  order_by: (s) => (s.order ? undefined : { ...s, order: [`${s.ret[0]![1]} DESC`] }),
  limit: (s) => (s.limit !== undefined ? undefined : { ...s, limit: 5 }),
  with: (s) => (s.with ? undefined : { ...s, with: named(s) }),
  distinct: (s) => (s.distinct || s.ret.some(([e]) => isAgg(e)) ? undefined : { ...s, distinct: true }),
  optional_match: (s) => {
    if (s.optional) return undefined;
    const v = lastNode(s);
    const agg = s.ret.some(([e]) => isAgg(e));
    const optional: Chain = { nodes: [{ v }, { v: 'o', type: 'disease' }], rels: [{ dir: 'in' }] };
    return { ...s, optional, ret: [...s.ret, agg ? ['count(o)', 'o_n'] : ['o.name', 'o_name']] };
  },
  pattern_predicate: (s) => (s.exists ? undefined : { ...s, exists: { v: lastNode(s), type: 'gene' } }),
};

const byId = (v: string, type?: string): NodeSpec => ({ v, byId: true, ...(type ? { type } : {}) });
const n = (v: string, type?: string): NodeSpec => ({ v, ...(type ? { type } : {}) });
const out: RelSpec = { dir: 'out' };

/** The fixed shapes: each is run as written and as each variant that applies to it. */
export const SHAPES: Shape[] = [
  [
    'lookup_by_id',
    {
      match: [{ nodes: [byId('a')], rels: [] }],
      where: [],
      ret: [
        ['a.name', 'name'],
        ['a.claim_count', 'c'],
      ],
    },
  ],
  [
    'one_hop',
    {
      match: [{ nodes: [byId('a'), n('b')], rels: [{ v: 'r', dir: 'out' }] }],
      where: ['r.confidence > 0.6'],
      ret: [
        ['b.name', 'name'],
        ['r.confidence', 'c'],
      ],
    },
  ],
  [
    'one_hop_in',
    {
      match: [{ nodes: [byId('a'), n('b')], rels: [{ v: 'r', dir: 'in' }] }],
      where: [],
      ret: [
        ['b.name', 'name'],
        ['b.type', 't'],
      ],
    },
  ],
  [
    'one_hop_both_count',
    { match: [{ nodes: [byId('a'), n('b')], rels: [{ dir: 'both' }] }], where: [], ret: [['count(*)', 'n']] },
  ],
  [
    'two_hop_count',
    { match: [{ nodes: [byId('a'), n('b'), n('c')], rels: [out, out] }], where: [], ret: [['count(c)', 'n']] },
  ],
  [
    'two_hop_typed',
    {
      match: [{ nodes: [byId('a'), n('b'), n('c', 'drug')], rels: [out, { dir: 'both' }] }],
      where: [],
      ret: [['c.name', 'name']],
    },
  ],
  [
    'three_hop_count',
    {
      match: [{ nodes: [byId('a'), n('b'), n('c'), n('d')], rels: [out, out, out] }],
      where: [],
      ret: [['count(*)', 'n']],
    },
  ],
  [
    'var_length_1_3',
    {
      match: [{ nodes: [byId('a'), n('b')], rels: [{ dir: 'out', hops: [1, 3] }] }],
      where: [],
      ret: [['count(b)', 'n']],
    },
  ],
  [
    'var_length_both_distinct',
    {
      match: [{ nodes: [byId('a'), n('b', 'gene')], rels: [{ dir: 'both', hops: [1, 2] }] }],
      where: [],
      ret: [['count(DISTINCT b)', 'n']],
    },
  ],
  [
    'aggregate_by_type',
    {
      match: [{ nodes: [n('n')], rels: [] }],
      where: [],
      ret: [
        ['n.type', 'type'],
        ['count(*)', 'cnt'],
        ['avg(n.claim_count)', 'mean'],
      ],
    },
  ],
  ['count_label', { match: [{ nodes: [n('n', 'gene')], rels: [] }], where: [], ret: [['count(*)', 'cnt']] }],
  [
    'scan_filter',
    {
      match: [{ nodes: [n('n', 'drug')], rels: [] }],
      where: ['n.claim_count > 12'],
      ret: [
        ['n.name', 'name'],
        ['n.claim_count', 'c'],
      ],
    },
  ],
  [
    'rel_count_by_predicate',
    {
      match: [{ nodes: [n('a'), n('b')], rels: [{ v: 'r', dir: 'out' }] }],
      where: [],
      ret: [
        ['r.predicate', 'p'],
        ['count(*)', 'cnt'],
      ],
    },
  ],
  [
    'rel_confidence_by_type',
    {
      match: [{ nodes: [n('a', 'gene'), n('b')], rels: [{ v: 'r', dir: 'out' }] }],
      where: [],
      ret: [
        ['b.type', 't'],
        ['avg(r.confidence)', 'c'],
        ['count(*)', 'cnt'],
      ],
    },
  ],
  [
    'in_degree_top',
    {
      match: [{ nodes: [n('a', 'disease'), n('b')], rels: [{ v: 'r', dir: 'in' }] }],
      where: [],
      ret: [
        ['a.name', 'name'],
        ['count(r)', 'deg'],
      ],
      order: ['deg DESC', 'name'],
      limit: 10,
    },
  ],
  [
    'neighbours_collect',
    {
      match: [{ nodes: [byId('a'), n('b')], rels: [{ dir: 'both' }] }],
      where: [],
      ret: [
        ['a.name', 'name'],
        ['collect(b.name)', 'names'],
      ],
    },
  ],
  [
    'optional_typed',
    {
      match: [{ nodes: [byId('a')], rels: [] }],
      where: [],
      optional: { nodes: [n('a'), n('p', 'pathway')], rels: [out] },
      ret: [
        ['a.name', 'name'],
        ['count(p)', 'pathways'],
      ],
    },
  ],
  [
    'pattern_predicate',
    {
      match: [{ nodes: [n('n', 'protein')], rels: [] }],
      where: ['n.claim_count > 15'],
      exists: { v: 'n', type: 'drug' },
      ret: [['count(n)', 'cnt']],
    },
  ],
  [
    'name_range',
    {
      match: [{ nodes: [n('n', 'gene')], rels: [] }],
      where: ["n.name >= 'E1'", "n.name < 'E2'"],
      ret: [['count(*)', 'cnt']],
    },
  ],
  [
    'triangle',
    {
      match: [
        { nodes: [byId('a'), n('b'), n('c')], rels: [out, out] },
        { nodes: [n('a'), n('c')], rels: [out] },
      ],
      where: [],
      ret: [['count(*)', 'n']],
    },
  ],
  [
    'common_neighbours',
    {
      match: [{ nodes: [byId('a'), n('b'), n('c')], rels: [out, { dir: 'in' }] }],
      where: [],
      ret: [
        ['c.name', 'name'],
        ['count(*)', 'shared'],
      ],
      order: ['shared DESC', 'name'],
      limit: 5,
    },
  ],
  [
    'anti_pattern',
    {
      match: [{ nodes: [n('n', 'pathway')], rels: [] }],
      where: ['n.claim_count > 10'],
      exists: { v: 'n', type: 'gene', negate: true },
      ret: [['n.name', 'name']],
    },
  ],
].map(([name, spec]) => ({ name: name as string, base: name as string, spec: spec as Spec }));

/** Every shape and every variant that applies to it. */
export function withVariants(shapes: Shape[]): Shape[] {
  return shapes.flatMap((s) => [
    s,
    ...Object.entries(VARIANTS).flatMap(([v, f]) => {
      const spec = f(s.spec);
      return spec ? [{ name: `${s.name}+${v}`, base: s.name, spec }] : [];
    }),
  ]);
}

/**
 * Shapes drawn at run time from `seed`: a chain of 1-3 relationships (one may be variable-length when the
 * chain is anchored by id), random types, predicates and directions, 0-2 conditions, and a random mix of
 * WITH, DISTINCT, OPTIONAL MATCH, a pattern predicate, an aggregation, ORDER BY and LIMIT. A chain that is not
 * anchored starts at a type and has at most two relationships, so that every shape stays a query a user might run.
 */
export function heldOut(seed: number, count: number): Shape[] {
  const rand = seededRandom(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const chance = (p: number) => rand() < p;
  const shapes: Shape[] = [];
  for (let k = 0; k < count; k++) {
    const anchored = chance(0.6);
    const hops = 1 + Math.floor(rand() * (anchored ? 3 : 2));
    const nodes: NodeSpec[] = [];
    const rels: RelSpec[] = [];
    for (let i = 0; i <= hops; i++) {
      const type = i === 0 && !anchored ? pick(TYPES) : chance(0.35) ? pick(TYPES) : undefined;
      nodes.push({ v: `n${i}`, ...(type ? { type } : {}), ...(i === 0 && anchored ? { byId: true } : {}) });
    }
    const varLength = anchored && chance(0.3) ? Math.floor(rand() * hops) : -1;
    for (let i = 0; i < hops; i++) {
      const r: RelSpec = { v: `r${i}`, dir: pick(['out', 'out', 'in', 'both'] as const) };
      if (i === varLength) {
        delete r.v;
        r.hops = [1, 2 + Math.floor(rand() * 2)];
      } else if (chance(0.25)) r.pred = Math.floor(rand() * 50);
      rels.push(r);
    }
    const last = nodes[nodes.length - 1]!.v;
    const relVars = rels.flatMap((r) => (r.v ? [r.v] : []));
    const where: string[] = [];
    const pool = [
      `${last}.claim_count > ${3 + Math.floor(rand() * 12)}`,
      `${pick(nodes).v}.name STARTS WITH 'E${1 + Math.floor(rand() * 9)}'`,
      ...relVars.map((r) => `${r}.confidence > ${(0.5 + rand() / 2).toFixed(2)}`),
    ];
    for (let i = Math.floor(rand() * 3); i > 0; i--) where.push(pick(pool));
    const spec: Spec = { match: [{ nodes, rels }], where: [...new Set(where)], ret: [] };
    if (chance(0.5)) {
      const key = pick([
        `${last}.type`,
        `${nodes[0]!.v}.name`,
        ...(relVars.length > 0 ? [`${relVars[0]}.predicate`] : []),
      ]);
      const agg = pick([
        ['count(*)', 'cnt'],
        [`count(DISTINCT ${last})`, 'cnt'],
        [`collect(${last}.name)`, 'names'],
        ...(relVars.length > 0 ? [[`avg(${relVars[0]}.confidence)`, 'conf']] : []),
      ]) as [string, string];
      spec.ret = chance(0.3) ? [agg] : [[key, 'k'], agg];
    } else
      spec.ret = [
        [`${last}.name`, 'name'],
        [`${nodes[0]!.v}.claim_count`, 'c'],
      ];
    let s: Spec | undefined = spec;
    // WITH last: it carries every variable bound before it, the OPTIONAL MATCH's too.
    for (const v of ['distinct', 'optional_match', 'pattern_predicate', 'with'] as const) {
      if (chance(0.25)) s = VARIANTS[v]!(s!) ?? s;
    }
    if (chance(0.5) && !s!.order) s = { ...s!, order: [`${s!.ret[0]![1]}${chance(0.5) ? ' DESC' : ''}`] };
    if (chance(0.6) && s!.limit === undefined) s = { ...s!, limit: 1 + Math.floor(rand() * 20) };
    shapes.push({ name: `held_out_${k}`, base: `held_out_${k}`, spec: s! });
  }
  return shapes;
}
