// The description of each topic: size, parent and children, the most central entities, a label, and its term of
// the modularity. Label rule: the names of the (up to) three entities with most facts inside the topic, then in
// parentheses the topic's most common entity type and the most common predicate among its inside facts
// ("BRCA1, TP53, ATM (gene; interacts_with)"); ties go to the name or type seen first.
import type { ReadContext } from '../graph/read.js';
import type { EntityGraph } from './entity-graph.js';
import type { Topic, TopicEntity, TopologyLevel } from './types.js';

const TOP_ENTITIES = 5;

export const topicId = (level: number, index: number) => `${level}.${index}`;

/** Each node's weight to nodes of its own topic. */
export function insideDegree(graph: EntityGraph, membership: Int32Array): Float64Array {
  const { csr } = graph;
  const out = new Float64Array(csr.n);
  for (let v = 0; v < csr.n; v++) {
    const c = membership[v]!;
    let s = 0;
    for (let p = csr.offsets[v]!; p < csr.offsets[v + 1]!; p++)
      if (membership[csr.targets[p]!] === c) s += csr.weights[p]!;
    out[v] = s;
  }
  return out;
}

/**
 * The (up to) `k` nodes of `nodes` (in ascending order) with most weight inside their topic, most first, ties to the
 * node first in `nodes`: what a stable sort by `inside` would put first, in one pass instead of a sort of the whole
 * topic (a sort of every topic at every level took most of the labels' time at a million claims).
 */
export function topByInside(nodes: number[], inside: Float64Array, k: number): number[] {
  const top: number[] = [];
  for (const v of nodes) {
    const w = inside[v]!;
    if (top.length === k && w <= inside[top[k - 1]!]!) continue;
    let at = Math.min(top.length, k - 1);
    while (at > 0 && inside[top[at - 1]!]! < w) at--;
    if (top.length < k) top.push(v);
    top.copyWithin(at + 1, at, top.length - 1);
    top[at] = v;
  }
  return top;
}

/** `contributions`: each level's modularity terms per topic (the computation has them already). */
export function describeTopics(
  rc: ReadContext,
  graph: EntityGraph,
  memberships: Int32Array[],
  parents: Int32Array[],
  levels: TopologyLevel[],
  contributions: Float64Array[],
): Topic[] {
  const s = rc.s;
  const topics: Topic[] = [];
  for (let level = 0; level < memberships.length; level++) {
    const membership = memberships[level]!;
    const count = levels[level]!.topic_count;
    const inside = insideDegree(graph, membership);
    const members: number[][] = Array.from({ length: count }, () => []);
    for (let v = 0; v < membership.length; v++) members[membership[v]!]!.push(v);
    const predicates: Map<number, number>[] = Array.from({ length: count }, () => new Map());
    for (let f = 0; f < graph.factCount; f++) {
      const a = graph.nodeOf[s.factS[f]!]!;
      const b = graph.nodeOf[s.factO[f]!]!;
      if (a < 0 || b < 0 || a === b || membership[a] !== membership[b] || !rc.factHasLive(f)) continue;
      const m = predicates[membership[a]!]!;
      m.set(s.factP[f]!, (m.get(s.factP[f]!) ?? 0) + 1);
    }
    const terms = contributions[level]!;
    const children: string[][] = Array.from({ length: count }, () => []);
    if (level > 0) {
      const up = parents[level - 1]!;
      for (let t = 0; t < up.length; t++) children[up[t]!]!.push(topicId(level - 1, t));
    }
    for (let t = 0; t < count; t++) {
      const nodes = members[t]!;
      const best = topByInside(nodes, inside, TOP_ENTITIES);
      const most = inside[best[0]!] || 1;
      const top: TopicEntity[] = best.map((v) => ({
        ...rc.summary(graph.entities[v]!),
        centrality: inside[v]! / most,
      }));
      const type = commonestType(s.entityType, graph, nodes, inside);
      const pred = argmax(predicates[t]!);
      const tail = [type, pred === undefined ? undefined : s.predName[pred]].filter((x) => x !== undefined);
      const names = top.slice(0, 3).map((e) => e.name);
      topics.push({
        topic_id: topicId(level, t),
        level,
        parent_id: level < parents.length ? topicId(level + 1, parents[level]![t]!) : null,
        children: children[t]!,
        size: nodes.length,
        label: `${names.join(', ')}${tail.length ? ` (${tail.join('; ')})` : ''}`,
        top_entities: top,
        modularity_contribution: terms[t] ?? 0,
      });
    }
  }
  return topics;
}

/**
 * The entity type most of `nodes` have; a tie goes to the type whose most central member (most weight inside, then
 * first in `nodes`) comes first, as the type seen first among the topic's nodes ordered by that weight.
 */
function commonestType(
  entityType: ArrayLike<string>,
  graph: EntityGraph,
  nodes: number[],
  inside: Float64Array,
): string | undefined {
  const types = new Map<string, { n: number; lead: number }>();
  for (const v of nodes) {
    const ty = entityType[graph.entities[v]!]!;
    const t = types.get(ty);
    if (!t) types.set(ty, { n: 1, lead: v });
    else {
      t.n++;
      if (inside[v]! > inside[t.lead]!) t.lead = v;
    }
  }
  let best: string | undefined;
  let bestT: { n: number; lead: number } | undefined;
  for (const [ty, t] of types) {
    const before =
      bestT === undefined ||
      t.n > bestT.n ||
      (t.n === bestT.n &&
        (inside[t.lead]! > inside[bestT.lead]! || (inside[t.lead] === inside[bestT.lead] && t.lead < bestT.lead)));
    if (before) {
      best = ty;
      bestT = t;
    }
  }
  return best;
}

function argmax<K>(m: Map<K, number>): K | undefined {
  let best: K | undefined;
  let bestN = 0;
  for (const [k, n] of m) {
    if (n > bestN) {
      best = k;
      bestN = n;
    }
  }
  return best;
}
