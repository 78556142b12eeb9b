// qualityReport, findConfidenceAlerts, findGaps, schema: summaries of the active graph.
import type { ReadContext } from '../graph/read.js';
import type { EntitySummary } from '../types.js';
import { vocabularyWarnings } from './warnings.js';

/** Per visible entity: distinct active sources, mean confidence, newest claim time. */
function entityProfiles(rc: ReadContext): {
  sources: Int32Array;
  confSum: Float64Array;
  count: Int32Array;
  newest: Float64Array;
  sourceSet: (Set<number> | number)[];
} {
  const s = rc.s;
  const nE = s.entityIds.length;
  const count = new Int32Array(nE);
  const confSum = new Float64Array(nE);
  const newest = new Float64Array(nE);
  const sourceSet: (Set<number> | number)[] = new Array(nE).fill(-1);
  const n = s.claimCount;
  for (let c = 0; c < n; c++) {
    if (!rc.isLive(c)) continue;
    const f = s.claimFact[c]!;
    const a = s.factS[f]!;
    const b = s.factO[f]!;
    for (const e of a === b ? [a] : [a, b]) {
      count[e]!++;
      confSum[e]! += s.claimConf[c]!;
      if (s.claimTs[c]! > newest[e]!) newest[e] = s.claimTs[c]!;
      const cur = sourceSet[e]!;
      const src = s.claimSource[c]!;
      if (cur === -1) sourceSet[e] = src;
      else if (typeof cur === 'number') {
        if (cur !== src) sourceSet[e] = new Set([cur, src]);
      } else cur.add(src);
    }
  }
  const sources = new Int32Array(nE);
  for (let e = 0; e < nE; e++) {
    const cur = sourceSet[e]!;
    sources[e] = cur === -1 ? 0 : typeof cur === 'number' ? 1 : cur.size;
  }
  return { sources, confSum, count, newest, sourceSet };
}

export function qualityReport(rc: ReadContext) {
  const s = rc.s;
  const p = entityProfiles(rc);
  let entities = 0;
  const single: number[] = [];
  for (let e = 0; e < p.count.length; e++) {
    if (p.count[e] === 0) continue;
    entities++;
    if (p.sources[e] === 1) single.push(e);
  }
  single.sort((a, b) => p.count[b]! - p.count[a]!);
  const byType: Record<string, number> = {};
  const perSource = new Map<number, number>();
  let claims = 0;
  let facts = 0;
  const liveFacts = new Uint8Array(s.factCount);
  for (let c = 0; c < s.claimCount; c++) {
    if (!rc.isLive(c)) continue;
    claims++;
    const t = s.sourceTypeName[s.claimSourceType[c]!]!;
    byType[t] = (byType[t] ?? 0) + 1;
    perSource.set(s.claimSource[c]!, (perSource.get(s.claimSource[c]!) ?? 0) + 1);
    const f = s.claimFact[c]!;
    if (!liveFacts[f]) {
      liveFacts[f] = 1;
      facts++;
    }
  }
  const top = [...perSource]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 10)
    .map(([src, n]) => ({ source_id: s.sourceIds[src]!, claims: n }));
  return {
    entity_count: entities,
    claim_count: claims,
    single_source_entities: {
      count: single.length,
      ratio: entities ? single.length / entities : 0,
      examples: single.slice(0, 20).map((e) => rc.summary(e, p.count[e]!)),
    },
    source_distribution: { source_count: perSource.size, by_source_type: byType, top_sources: top },
    knowledge_density: {
      claims_per_entity: entities ? claims / entities : 0,
      facts_per_entity: entities ? facts / entities : 0,
      /** Distinct facts over the n(n-1) ordered entity pairs. */
      graph_density: entities > 1 ? facts / (entities * (entities - 1)) : 0,
      claims_per_fact: facts ? claims / facts : 0,
    },
    vocabulary_warnings: vocabularyWarnings(rc),
  };
}

export interface ConfidenceAlertOptions {
  stale_days?: number;
  low_confidence?: number;
  limit?: number;
}

export function findConfidenceAlerts(rc: ReadContext, now: number, o: ConfidenceAlertOptions = {}) {
  const staleDays = o.stale_days ?? 365;
  const low = o.low_confidence ?? 0.5;
  const limit = o.limit ?? 100;
  const p = entityProfiles(rc);
  const out: {
    entity: EntitySummary;
    alerts: ('single_source' | 'stale' | 'low_confidence')[];
    source_count: number;
    mean_confidence: number;
    newest_claim_at: string;
  }[] = [];
  for (let e = 0; e < p.count.length; e++) {
    const n = p.count[e]!;
    if (n === 0) continue;
    const alerts: ('single_source' | 'stale' | 'low_confidence')[] = [];
    const mean = p.confSum[e]! / n;
    if (p.sources[e] === 1) alerts.push('single_source');
    if (now - p.newest[e]! > staleDays * 86_400_000) alerts.push('stale');
    if (mean < low) alerts.push('low_confidence');
    if (alerts.length) {
      out.push({
        entity: rc.summary(e, n),
        alerts,
        source_count: p.sources[e]!,
        mean_confidence: mean,
        newest_claim_at: new Date(p.newest[e]!).toISOString(),
      });
    }
  }
  out.sort(
    (a, b) =>
      b.alerts.length - a.alerts.length ||
      b.entity.claim_count - a.entity.claim_count ||
      (a.entity.id < b.entity.id ? -1 : 1),
  );
  return out.slice(0, limit);
}

export function schemaOf(rc: ReadContext) {
  const s = rc.s;
  const types = new Map<string, number>();
  for (const e of rc.visibleEntities()) types.set(s.entityType[e]!, (types.get(s.entityType[e]!) ?? 0) + 1);
  const preds = new Map<number, number>();
  const patterns = new Map<string, number>();
  for (const c of rc.liveClaims()) {
    const f = s.claimFact[c]!;
    const p = s.factP[f]!;
    preds.set(p, (preds.get(p) ?? 0) + 1);
    const key = `${s.entityType[s.factS[f]!]}\u0000${p}\u0000${s.entityType[s.factO[f]!]}`;
    patterns.set(key, (patterns.get(key) ?? 0) + 1);
  }
  return {
    entity_types: [...types].sort((a, b) => b[1] - a[1]).map(([type, count]) => ({ type, count })),
    predicates: [...preds]
      .sort((a, b) => b[1] - a[1])
      .map(([p, count]) => ({ predicate: s.predName[p]!, predicate_class: s.predClass[p]!, count })),
    patterns: [...patterns]
      .sort((a, b) => b[1] - a[1])
      .map(([k, count]) => {
        const [st, p, ot] = k.split('\u0000');
        return { subject_type: st!, predicate: s.predName[Number(p)]!, object_type: ot!, count };
      }),
    registered: {
      vocabularies: [...s.registry.vocabularies.keys()],
      predicates: s.registry.predicateSpecs(),
      payload_schemas: Object.keys(s.registry.payloadSchemas()),
    },
  };
}

export interface ExpectedPattern {
  entity_type: string;
  predicate: string;
  /** 'outgoing' (entity is the subject), 'incoming' (the object) or 'any' (default). */
  direction?: 'outgoing' | 'incoming' | 'any';
}

/**
 * Entities of a pattern's type lacking its relationship. Without patterns, a pattern is expected when at
 * least half of the (at least 5) entities of a type have it.
 */
export function findGaps(rc: ReadContext, patterns: ExpectedPattern[] | undefined, limit = 1000) {
  const s = rc.s;
  const has = (e: number, p: number, dir: 'outgoing' | 'incoming' | 'any') => {
    for (let f = s.firstFact(e); f >= 0; f = s.nextFact(f, e)) {
      if (s.factP[f] !== p) continue;
      const ok = dir === 'any' || (dir === 'outgoing' ? s.factS[f] === e : s.factO[f] === e);
      if (ok && rc.factHasLive(f)) return true;
    }
    return false;
  };
  let expected: { entity_type: string; predicate: string; direction: 'outgoing' | 'incoming' | 'any' }[];
  if (patterns?.length) {
    expected = patterns.map((p) => ({
      entity_type: p.entity_type
        .trim()
        .toLowerCase()
        .replace(/[\s-]+/g, '_'),
      predicate: p.predicate
        .trim()
        .toLowerCase()
        .replace(/[\s-]+/g, '_'),
      direction: p.direction ?? 'any',
    }));
  } else {
    const byType = new Map<string, number[]>();
    for (const e of rc.visibleEntities()) {
      const t = s.entityType[e]!;
      const l = byType.get(t);
      if (l) l.push(e);
      else byType.set(t, [e]);
    }
    expected = [];
    for (const [t, list] of byType) {
      if (list.length < 5) continue;
      const counts = new Map<string, number>();
      for (const e of list) {
        const mine = new Set<string>();
        for (let f = s.firstFact(e); f >= 0; f = s.nextFact(f, e)) {
          if (!rc.factHasLive(f)) continue;
          mine.add(`${s.factS[f] === e ? 'outgoing' : 'incoming'}\u0000${s.factP[f]}`);
        }
        for (const k of mine) counts.set(k, (counts.get(k) ?? 0) + 1);
      }
      for (const [k, n] of counts) {
        if (n * 2 < list.length || n === list.length) continue;
        const [dir, p] = k.split('\u0000');
        expected.push({ entity_type: t, predicate: s.predName[Number(p)]!, direction: dir as 'outgoing' | 'incoming' });
      }
    }
  }
  const gaps: { entity: EntitySummary; missing: { predicate: string; direction: string } }[] = [];
  for (const pat of expected) {
    const p = s.predIndex.get(pat.predicate);
    for (const e of rc.visibleEntities()) {
      if (!rc.hasType(e, pat.entity_type)) continue;
      if (p !== undefined && has(e, p, pat.direction)) continue;
      gaps.push({ entity: rc.summary(e), missing: { predicate: pat.predicate, direction: pat.direction } });
      if (gaps.length >= limit) return gaps;
    }
  }
  return gaps;
}
