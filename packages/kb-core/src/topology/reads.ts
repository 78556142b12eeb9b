// Reads over a kept topology and the graph as a read context sees it now: topics, density per topic, entities
// that bridge topics, one topic's contents. Entities the computation did not see (added since) are outside every
// topic; claims retracted since no longer count.
import { KbNotFoundError, KbValidationError } from '../errors.js';
import type { ReadContext } from '../graph/read.js';
import type { EntitySummary } from '../types.js';
import { topicId } from './labels.js';
import type { StoredTopology, Topic, TopicEntity } from './types.js';

export interface TopicDensity {
  topic_id: string;
  size: number;
  /** Active claims with at least one end in the topic. */
  claim_count: number;
  /** Active claims with both ends in the topic. */
  internal_claim_count: number;
  source_count: number;
  source_type_count: number;
  /** Fraction of the topic's entities with active claims from two or more distinct sources. */
  coverage: number;
  /** Distinct facts inside the topic over the pairs its entities could form, s·(s−1)/2. */
  internal_density: number;
  /** Distinct facts leaving the topic over the pairs it could form with every other entity, s·(N−s). */
  external_density: number;
}

export interface CrossDomainBridge {
  entity: EntitySummary;
  topic_id: string;
  /** Guimerà and Amaral's participation coefficient: 1 − Σ_t (k_t / k)², k_t the entity's facts into topic t. */
  participation_coefficient: number;
  /** Pairs of the entity's neighbours in different topics, Σ_{t<u} k_t·k_u: the two-step paths between topics through it. */
  bridge_score: number;
  topics: { topic_id: string; fact_count: number }[];
  /** Entity types of the neighbours in other topics (the domains it joins). */
  domains: string[];
  /** Claims of the facts into other topics (up to 20). */
  claim_ids: string[];
}

export interface TopicContents {
  topic: Topic;
  entities: TopicEntity[];
  relationships: { subject_id: string; predicate: string; object_id: string; claim_ids: string[] }[];
  subtopics: Topic[];
}

/** Topic index (at `level`) of each entity index of the snapshot, −1 outside every topic. */
export function topicOfEntity(rc: ReadContext, stored: StoredTopology, level: number): Int32Array {
  const out = new Int32Array(rc.s.entityIds.length).fill(-1);
  const membership = stored.memberships[level]!;
  stored.entity_ids.forEach((id, v) => {
    const e = rc.s.entityIndex.get(id);
    if (e !== undefined && rc.entityClaimCount(e) > 0) out[e] = membership[v]!;
  });
  return out;
}

export function checkLevel(stored: StoredTopology, level: unknown, dflt: number | undefined): number | undefined {
  if (level === undefined) return dflt;
  const max = stored.memberships.length - 1;
  if (typeof level !== 'number' || !Number.isInteger(level) || level < 0 || level > Math.max(0, max)) {
    throw new KbValidationError('out_of_range', 'level', `must be an integer from 0 to ${Math.max(0, max)}`);
  }
  return level;
}

export function listTopics(stored: StoredTopology, level: number | undefined): Topic[] {
  return level === undefined ? stored.result.topics : stored.result.topics.filter((t) => t.level === level);
}

export function densityMap(rc: ReadContext, stored: StoredTopology, level: number): TopicDensity[] {
  const s = rc.s;
  if (stored.memberships.length === 0) return [];
  const topicOf = topicOfEntity(rc, stored, level);
  const topics = listTopics(stored, level);
  const count = topics.length;
  const size = new Int32Array(count);
  for (const t of topicOf) if (t >= 0) size[t]!++;
  const claims = new Int32Array(count);
  const internalClaims = new Int32Array(count);
  const insideFacts = new Int32Array(count);
  const outsideFacts = new Int32Array(count);
  const sources: Set<number>[] = Array.from({ length: count }, () => new Set());
  const sourceTypes: Set<number>[] = Array.from({ length: count }, () => new Set());
  const entitySources = new Map<number, Set<number>>();
  for (let f = 0; f < s.factCount; f++) {
    const a = s.factS[f]!;
    const b = s.factO[f]!;
    const ta = topicOf[a]!;
    const tb = topicOf[b]!;
    if (ta < 0 && tb < 0) continue;
    const live = rc.factLiveClaims(f);
    if (live.length === 0) continue;
    if (a !== b) {
      if (ta === tb) insideFacts[ta]!++;
      else {
        if (ta >= 0) outsideFacts[ta]!++;
        if (tb >= 0) outsideFacts[tb]!++;
      }
    }
    for (const c of live) {
      for (const t of ta === tb || tb < 0 ? [ta] : ta < 0 ? [tb] : [ta, tb]) {
        claims[t]!++;
        sources[t]!.add(s.claimSource[c]!);
        sourceTypes[t]!.add(s.claimSourceType[c]!);
      }
      if (ta >= 0 && ta === tb) internalClaims[ta]!++;
      for (const e of a === b ? [a] : [a, b]) {
        if (topicOf[e]! < 0) continue;
        let set = entitySources.get(e);
        if (!set) {
          set = new Set();
          entitySources.set(e, set);
        }
        set.add(s.claimSource[c]!);
      }
    }
  }
  const covered = new Int32Array(count);
  for (const [e, set] of entitySources) if (set.size >= 2) covered[topicOf[e]!]!++;
  let total = 0;
  for (const x of size) total += x;
  return topics.map((topic, t) => {
    const n = size[t]!;
    return {
      topic_id: topic.topic_id,
      size: n,
      claim_count: claims[t]!,
      internal_claim_count: internalClaims[t]!,
      source_count: sources[t]!.size,
      source_type_count: sourceTypes[t]!.size,
      coverage: n === 0 ? 0 : covered[t]! / n,
      internal_density: n < 2 ? 0 : insideFacts[t]! / ((n * (n - 1)) / 2),
      external_density: n === 0 || total === n ? 0 : outsideFacts[t]! / (n * (total - n)),
    };
  });
}

export function crossDomainBridges(
  rc: ReadContext,
  stored: StoredTopology,
  level: number,
  topK: number,
): CrossDomainBridge[] {
  const s = rc.s;
  if (stored.memberships.length === 0) return [];
  const topicOf = topicOfEntity(rc, stored, level);
  const scored: { e: number; score: number; p: number; k: Map<number, number> }[] = [];
  for (let e = 0; e < topicOf.length; e++) {
    const own = topicOf[e]!;
    if (own < 0) continue;
    const k = new Map<number, number>();
    let total = 0;
    for (let f = s.firstFact(e); f >= 0; f = s.nextFact(f, e)) {
      const other = s.factS[f] === e ? s.factO[f]! : s.factS[f]!;
      const t = topicOf[other]!;
      if (other === e || t < 0 || !rc.factHasLive(f)) continue;
      k.set(t, (k.get(t) ?? 0) + 1);
      total++;
    }
    if (k.size < 2) continue;
    let sq = 0;
    let sumK = 0;
    let sumSq = 0;
    for (const x of k.values()) {
      sq += (x / total) ** 2;
      sumK += x;
      sumSq += x * x;
    }
    scored.push({ e, score: (sumK * sumK - sumSq) / 2, p: 1 - sq, k });
  }
  scored.sort((x, y) => y.score - x.score || y.p - x.p);
  return scored.slice(0, topK).map(({ e, score, p, k }) => {
    const own = topicOf[e]!;
    const domains = new Set<string>();
    const claimIds: string[] = [];
    for (let f = s.firstFact(e); f >= 0; f = s.nextFact(f, e)) {
      const other = s.factS[f] === e ? s.factO[f]! : s.factS[f]!;
      const t = topicOf[other]!;
      if (t < 0 || t === own) continue;
      const live = rc.factLiveClaims(f);
      if (live.length === 0) continue;
      domains.add(s.entityType[other]!);
      for (const c of live) if (claimIds.length < 20) claimIds.push(s.claimIdOf(c));
    }
    return {
      entity: rc.summary(e),
      topic_id: topicId(level, own),
      participation_coefficient: p,
      bridge_score: score,
      topics: [...k].sort((x, y) => y[1] - x[1]).map(([t, n]) => ({ topic_id: topicId(level, t), fact_count: n })),
      domains: [...domains].sort(),
      claim_ids: claimIds,
    };
  });
}

export function queryTopic(rc: ReadContext, stored: StoredTopology, id: string, limit: number): TopicContents {
  const topic = stored.result.topics.find((t) => t.topic_id === id);
  if (!topic) throw new KbNotFoundError('topic', id);
  const s = rc.s;
  const level = topic.level;
  const index = Number(id.slice(id.indexOf('.') + 1));
  const topicOf = topicOfEntity(rc, stored, level);
  const inside = new Map<number, number>();
  const relationships: TopicContents['relationships'] = [];
  for (let e = 0; e < topicOf.length; e++) if (topicOf[e] === index) inside.set(e, 0);
  for (const e of inside.keys()) {
    for (let f = s.firstFact(e); f >= 0; f = s.nextFact(f, e)) {
      const other = s.factS[f] === e ? s.factO[f]! : s.factS[f]!;
      if (other === e || topicOf[other] !== index) continue;
      const live = rc.factLiveClaims(f);
      if (live.length === 0) continue;
      inside.set(e, inside.get(e)! + 1);
      // Each inside fact once: from its subject.
      if (s.factS[f] === e && relationships.length < limit) {
        relationships.push({
          subject_id: s.entityIds[e]!,
          predicate: s.predName[s.factP[f]!]!,
          object_id: s.entityIds[other]!,
          claim_ids: live.map((c) => s.claimIdOf(c)),
        });
      }
    }
  }
  let most = 1;
  for (const d of inside.values()) most = Math.max(most, d);
  const entities = [...inside]
    .sort((x, y) => y[1] - x[1] || x[0] - y[0])
    .slice(0, limit)
    .map(([e, d]) => ({ ...rc.summary(e), centrality: d / most }));
  const subtopics = stored.result.topics.filter((t) => topic.children.includes(t.topic_id));
  return { topic, entities, relationships, subtopics };
}
