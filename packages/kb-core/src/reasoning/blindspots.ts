// blindspots(): where knowledge is thin, measured against the registered vocabularies and the graph's shape.
import type { ReadContext } from '../graph/read.js';
import type { EntitySummary } from '../types.js';
import { type FactRef, factRef, intArg, liveSources, optionsArg } from './common.js';

export interface Blindspots {
  min_claims: number;
  /** Entity types of the registered vocabularies with fewer than min_claims active claims mentioning them. */
  thin_entity_types: { entity_type: string; claims: number }[];
  /** Predicates of the registered vocabularies (and registerPredicate) with fewer than min_claims active claims. */
  thin_predicates: { predicate: string; claims: number }[];
  /** Entities with two or more active relationships, all of one predicate. */
  single_predicate_entities: {
    count: number;
    entities: (EntitySummary & { predicate: string; relationships: number })[];
  };
  /** Active relationships with two or more sources that are all of one source type. */
  single_source_type_relationships: {
    count: number;
    relationships: (FactRef & { source_type: string; sources: number })[];
  };
}

export function blindspots(rc: ReadContext, options: unknown): Blindspots {
  const o = optionsArg<{ min_claims: number; limit: number }>(options);
  const min = intArg(o.min_claims, 'min_claims', 5, 1, 1_000_000);
  const limit = intArg(o.limit, 'limit', 100, 0, 100_000);
  const s = rc.s;
  const byType = new Map<string, number>();
  for (const t of s.registry.entityTypes) byType.set(t, 0);
  const singles: Blindspots['single_predicate_entities'] = { count: 0, entities: [] };
  for (let e = 0; e < s.entityIds.length; e++) {
    const n = rc.entityClaimCount(e);
    if (n === 0) continue;
    const t = s.entityType[e]!;
    if (byType.has(t)) byType.set(t, byType.get(t)! + n);
    let pred = -1;
    let rels = 0;
    let mixed = false;
    for (let f = s.firstFact(e); f >= 0 && !mixed; f = s.nextFact(f, e)) {
      if (!rc.factHasLive(f)) continue;
      rels++;
      if (pred < 0) pred = s.factP[f]!;
      else if (s.factP[f] !== pred) mixed = true;
    }
    if (!mixed && rels >= 2) {
      singles.count++;
      if (singles.entities.length < limit)
        singles.entities.push({ ...rc.summary(e, n), predicate: s.predName[pred]!, relationships: rels });
    }
  }
  const byPred = new Map<string, number>();
  for (const p of Object.keys(s.registry.predicateSpecs())) byPred.set(p, 0);
  const oneType: Blindspots['single_source_type_relationships'] = { count: 0, relationships: [] };
  for (let f = 0; f < s.factCount; f++) {
    let n = 0;
    let type = -1;
    let oneTypeOnly = true;
    for (let c = s.factFirst[f]!; c >= 0; c = s.claimNextInFact[c]!) {
      if (!rc.isLive(c)) continue;
      n++;
      if (type < 0) type = s.claimSourceType[c]!;
      else if (s.claimSourceType[c] !== type) oneTypeOnly = false;
    }
    if (n === 0) continue;
    const p = s.predName[s.factP[f]!]!;
    const counted = byPred.get(p);
    if (counted !== undefined) byPred.set(p, counted + n);
    // n counts claims; the finding is about distinct sources.
    const sources = n >= 2 && oneTypeOnly ? liveSources(rc, f).size : 0;
    if (sources >= 2) {
      oneType.count++;
      if (oneType.relationships.length < limit)
        oneType.relationships.push({ ...factRef(rc, f), source_type: s.sourceTypeName[type]!, sources });
    }
  }
  const thin = <K extends string>(m: Map<string, number>, k: K) =>
    [...m]
      .filter(([, n]) => n < min)
      .sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1))
      .map(([name, claims]) => ({ [k]: name, claims }) as { [P in K]: string } & { claims: number });
  return {
    min_claims: min,
    thin_entity_types: thin(byType, 'entity_type'),
    thin_predicates: thin(byPred, 'predicate'),
    single_predicate_entities: singles,
    single_source_type_relationships: oneType,
  };
}
