// The KB's facts as the relationship columns of @evident/cypher (GraphReader.scanRelationshipColumns): an
// aggregation over one relationship pattern (count by predicate, an in-degree top-k, an average confidence
// by the far end's type) reads the fact arrays (subject, object, predicate) directly, with no relationship
// object per fact. Ends are entity indexes, the slots of KbCypherGraph.scanColumns. `predicate` and the type
// are the predicate codes themselves; `confidence` (noisy-OR over sources, each with its most confident
// live claim) and `source_count` are computed only when a query reads them.
import type { Column, RelationshipColumns } from '@evident/cypher';
import type { ReadContext } from '../graph/read.js';
import { type Appended, memoGrown, positionOf } from './appended.js';
import type { SnapshotCache } from './snapshot-cache.js';

/** One pass over the facts: the ends, predicate and fact id of each live fact of the types. */
interface FactPass {
  size: number;
  start: Int32Array;
  end: Int32Array;
  preds: Int32Array;
  facts: Int32Array;
}

/**
 * The live facts of the predicates whose relationship type (upper-cased name) is one of `types` (all when
 * empty). With `cache` (snapshot-cache.ts) the pass and the property columns are kept for the next query.
 */
export function relationshipColumns(
  rc: ReadContext,
  typeNames: readonly string[],
  types: readonly string[],
  keys: readonly string[],
  cache?: SnapshotCache,
): RelationshipColumns | undefined {
  const s = rc.s;
  const typesKey = `rel\u0000${types.join('\u0000')}`;
  const pass = keptPass(rc, typeNames, types, cache);
  const { size, preds, facts } = pass;
  const columns: Record<string, Column> = Object.create(null);
  for (const key of keys) {
    const make = (): Column | undefined => {
      if (key === 'predicate') return { kind: 'dict', codes: preds, dict: s.predName };
      if (key === 'predicate_class') return classColumn(s.predClass, preds);
      if (key === 'confidence') return { kind: 'float', values: confidences(rc, facts) };
      if (key === 'source_count') return { kind: 'int', values: sourceCounts(rc, facts) };
      return undefined;
    };
    // Only claims appended since: the kept column's values carried over, the new facts' and those given
    // claims since computed (a fact's confidence and sources move as claims join it).
    const grow = (old: Column | undefined, a: Appended): Column | undefined => {
      if (old?.kind !== 'float' || (key !== 'confidence' && key !== 'source_count')) return undefined;
      const values = new Float64Array(size);
      const kept = old.values;
      for (let i = 0; i < kept.length && i < size; i++) values[i] = kept[i]!;
      const redo = key === 'confidence' ? confidences : sourceCounts;
      const fresh = redo(rc, facts.subarray(old.values.length));
      values.set(fresh, old.values.length);
      for (const f of a.touchedFacts) {
        const at = positionOf(facts, f);
        if (at >= 0) values[at] = redo(rc, Int32Array.of(f))[0]!;
      }
      return { kind: 'float', values };
    };
    const c = memoGrown(rc, cache, `${typesKey}\u0001${key}`, make, grow);
    if (!c) return undefined;
    columns[key] = c;
  }
  const type: Column = { kind: 'dict', codes: preds, dict: typeNames };
  return { size, start: pass.start, end: pass.end, type, columns };
}

/** The live facts of the types (a RelationshipScan's relationships), from the same kept pass. */
export function factsOfTypes(
  rc: ReadContext,
  typeNames: readonly string[],
  types: readonly string[],
  cache?: SnapshotCache,
): Int32Array {
  return keptPass(rc, typeNames, types, cache).facts;
}

/** The pass kept per snapshot; when only claims were appended since the last one, it extended by the new facts. */
function keptPass(
  rc: ReadContext,
  typeNames: readonly string[],
  types: readonly string[],
  cache: SnapshotCache | undefined,
): FactPass {
  // Facts from before the mark stay live (appendedSince checks it), so the old pass is a prefix of the new.
  return memoGrown(
    rc,
    cache,
    `rel\u0000${types.join('\u0000')}`,
    () => factPass(rc, typeNames, types),
    (old, a) => factPass(rc, typeNames, types, a.mark.facts, old),
  );
}

function factPass(
  rc: ReadContext,
  typeNames: readonly string[],
  types: readonly string[],
  from = 0,
  before?: FactPass,
): FactPass {
  const s = rc.s;
  // The fact columns are allocated ahead: their length is a capacity, factCount the facts.
  const nf = s.factCount;
  const had = before?.size ?? 0;
  const want = types.length === 0 ? undefined : new Uint8Array(typeNames.length);
  if (want) for (const [p, t] of typeNames.entries()) want[p] = types.includes(t) ? 1 : 0;
  const room = had + nf - from;
  const start = new Int32Array(room);
  const end = new Int32Array(room);
  const preds = new Int32Array(room);
  const facts = new Int32Array(room);
  if (before) {
    start.set(before.start);
    end.set(before.end);
    preds.set(before.preds);
    facts.set(before.facts);
  }
  const { factS, factO, factP, factSources } = s;
  const live = rc.live;
  let m = had;
  for (let f = from; f < nf; f++) {
    const p = factP[f]!;
    if (want && want[p] === 0) continue;
    if (live ? factSources[f]! <= 0 : !rc.factHasLive(f)) continue;
    start[m] = factS[f]!;
    end[m] = factO[f]!;
    preds[m] = p;
    facts[m] = f;
    m++;
  }
  // Copies of the live part: a kept pass holds no more than it uses.
  return {
    size: m,
    start: start.slice(0, m),
    end: end.slice(0, m),
    preds: preds.slice(0, m),
    facts: facts.slice(0, m),
  };
}

/** Predicate classes as a dictionary column: classes repeat across predicates, and a dictionary's entries are distinct. */
function classColumn(classes: readonly string[], preds: Int32Array): Column {
  const dict: string[] = [];
  const index = new Map<string, number>();
  const ofPred = classes.map((c) => {
    let k = index.get(c);
    if (k === undefined) {
      k = dict.push(c) - 1;
      index.set(c, k);
    }
    return k;
  });
  return { kind: 'dict', codes: preds.map((p) => ofPred[p]!), dict };
}

const best = new Map<number, number>();

/**
 * A fact's confidence and distinct live sources as ReadContext.relationship gives them (1 - prod(1 - best
 * confidence per live source)), without its claim ids or the far end's summary.
 */
export function factConfidence(rc: ReadContext, f: number): { confidence: number; sources: number } {
  const s = rc.s;
  const first = s.factFirst[f]!;
  if (s.factClaimCount[f] === 1) return { confidence: s.claimConf[first]!, sources: 1 };
  best.clear();
  for (let c = first; c >= 0; c = s.claimNextInFact[c]!) {
    if (!rc.isLive(c)) continue;
    const src = s.claimSource[c]!;
    const prev = best.get(src);
    if (prev === undefined || s.claimConf[c]! > prev) best.set(src, s.claimConf[c]!);
  }
  let miss = 1;
  for (const x of best.values()) miss *= 1 - x;
  return { confidence: 1 - miss, sources: best.size };
}

function confidences(rc: ReadContext, facts: Int32Array): Float64Array {
  const s = rc.s;
  const out = new Float64Array(facts.length);
  for (let i = 0; i < facts.length; i++) {
    const f = facts[i]!;
    out[i] = s.factClaimCount[f] === 1 ? s.claimConf[s.factFirst[f]!]! : factConfidence(rc, f).confidence;
  }
  return out;
}

/** Distinct sources among a fact's live claims (the maintained count when reading the live state). */
function sourceCounts(rc: ReadContext, facts: Int32Array): Float64Array {
  const s = rc.s;
  const out = new Float64Array(facts.length);
  const seen = new Set<number>();
  for (let i = 0; i < facts.length; i++) {
    const f = facts[i]!;
    if (rc.live) {
      out[i] = s.factSources[f]!;
      continue;
    }
    seen.clear();
    for (let c = s.factFirst[f]!; c >= 0; c = s.claimNextInFact[c]!) if (rc.isLive(c)) seen.add(s.claimSource[c]!);
    out[i] = seen.size;
  }
  return out;
}
