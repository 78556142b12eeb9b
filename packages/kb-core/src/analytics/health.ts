// knowledgeHealth: one 0..100 score from five 0..1 metrics over active claims (see README for formulas).
import type { ReadContext } from '../graph/read.js';

// Deliberate likeness: named constants, which the duplicates tool pairs by shape with other files' constant runs
// (graph-algorithms' svd/row-ops.ts); the values are unrelated, nothing to share.
export const HALF_LIFE_DAYS = 30;
/** Distinct source types at which diversity counts as full (e.g. literature, database, experiment, curation, prediction). */
export const DIVERSITY_TARGET = 5;
export const WEIGHTS = {
  multi_source_ratio: 0.3,
  corroboration_ratio: 0.25,
  freshness: 0.2,
  source_diversity: 0.15,
  confidence_trend: 0.1,
} as const;

export interface KnowledgeHealth {
  score: number;
  metrics: {
    multi_source_ratio: number;
    corroboration_ratio: number;
    freshness: number;
    source_diversity: number;
    confidence_trend: number;
  };
  weights: typeof WEIGHTS;
  basis: {
    entities: number;
    claims: number;
    source_types: number;
    as_of: string;
    half_life_days: number;
    diversity_target: number;
  };
}

// Deliberate likeness: entityGraph (topology/entity-graph.ts) opens the same way (per-entity arrays sized from one
// ReadContext); only the opening is alike: this walks claims for five metrics, that one facts for a matrix.
export function knowledgeHealth(rc: ReadContext, now: number): KnowledgeHealth {
  const s = rc.s;
  const nE = s.entityIds.length;
  const firstSource = new Int32Array(nE).fill(-1);
  const multi = new Uint8Array(nE);
  const seenEntity = new Uint8Array(nE);
  const types = new Set<number>();
  let claims = 0;
  let fresh = 0;
  const confs: number[] = [];
  const lambda = Math.LN2 / (HALF_LIFE_DAYS * 86_400_000);
  const n = s.claimCount;
  for (let c = 0; c < n; c++) {
    if (!rc.isLive(c)) continue;
    claims++;
    const f = s.claimFact[c]!;
    const src = s.claimSource[c]!;
    for (const e of [s.factS[f]!, s.factO[f]!]) {
      seenEntity[e] = 1;
      if (firstSource[e] === -1) firstSource[e] = src;
      else if (firstSource[e] !== src) multi[e] = 1;
    }
    types.add(s.claimSourceType[c]!);
    fresh += Math.exp(-lambda * Math.max(0, now - s.claimTs[c]!));
    confs.push(s.claimConf[c]!);
  }
  let entities = 0;
  let multiCount = 0;
  for (let e = 0; e < nE; e++) {
    entities += seenEntity[e]!;
    multiCount += multi[e]!;
  }
  // Corroborated claims: those whose fact has at least two distinct active sources.
  let corroborated = 0;
  const nF = s.factCount;
  for (let f = 0; f < nF; f++) {
    if (s.factClaimCount[f]! < 2) continue;
    const group = s.claimsOfFact(f);
    const srcs = new Set<number>();
    let live = 0;
    for (const c of group) {
      if (rc.isLive(c)) {
        live++;
        srcs.add(s.claimSource[c]!);
      }
    }
    if (srcs.size >= 2) corroborated += live;
  }
  // Confidence trend: claims are in log (time) order; compare the newer half's mean with the older half's.
  let trend = 0.5;
  if (confs.length >= 2) {
    const half = Math.floor(confs.length / 2);
    let old = 0;
    let young = 0;
    for (let i = 0; i < half; i++) old += confs[i]!;
    for (let i = confs.length - half; i < confs.length; i++) young += confs[i]!;
    trend = Math.min(1, Math.max(0, 0.5 + (young - old) / half));
  }
  const metrics = {
    multi_source_ratio: entities ? multiCount / entities : 0,
    corroboration_ratio: claims ? corroborated / claims : 0,
    freshness: claims ? fresh / claims : 0,
    source_diversity: Math.min(1, types.size / DIVERSITY_TARGET),
    confidence_trend: trend,
  };
  let score = 0;
  for (const k of Object.keys(WEIGHTS) as (keyof typeof WEIGHTS)[]) score += WEIGHTS[k] * metrics[k];
  return {
    score: Math.round(score * 1000) / 10,
    metrics,
    weights: WEIGHTS,
    basis: {
      entities,
      claims,
      source_types: types.size,
      as_of: new Date(now).toISOString(),
      half_life_days: HALF_LIFE_DAYS,
      diversity_target: DIVERSITY_TARGET,
    },
  };
}
