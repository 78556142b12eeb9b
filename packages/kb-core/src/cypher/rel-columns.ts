// The KB's facts as the relationship columns of @evident/cypher (GraphReader.scanRelationshipColumns): an
// aggregation over one relationship pattern (count by predicate, an in-degree top-k, an average confidence
// by the far end's type) reads the fact arrays (subject, object, predicate) directly, with no relationship
// object per fact. Ends are entity indexes, the slots of KbCypherGraph.scanColumns. `predicate` and the type
// are the predicate codes themselves; `confidence` (noisy-OR over sources, each with its most confident
// live claim) and `source_count` are computed only when a query reads them.
import type { Column, RelationshipColumns } from '@evident/cypher';
import type { ReadContext } from '../graph/read.js';

/** The live facts of the predicates whose relationship type (upper-cased name) is one of `types` (all when empty). */
export function relationshipColumns(
  rc: ReadContext,
  typeNames: readonly string[],
  types: readonly string[],
  keys: readonly string[],
): RelationshipColumns | undefined {
  const s = rc.s;
  // The fact columns are allocated ahead: their length is a capacity, factCount the facts.
  const nf = s.factCount;
  const want = types.length === 0 ? undefined : new Uint8Array(typeNames.length);
  if (want) for (const [p, t] of typeNames.entries()) want[p] = types.includes(t) ? 1 : 0;
  // One pass: the ends and predicate of each live fact of the types (the fact ids only when a property is read).
  const start = new Int32Array(nf);
  const end = new Int32Array(nf);
  const preds = new Int32Array(nf);
  const facts = keys.length > 0 ? new Int32Array(nf) : undefined;
  const { factS, factO, factP, factSources } = s;
  const live = rc.live;
  let m = 0;
  for (let f = 0; f < nf; f++) {
    const p = factP[f]!;
    if (want && want[p] === 0) continue;
    if (live ? factSources[f]! <= 0 : !rc.factHasLive(f)) continue;
    start[m] = factS[f]!;
    end[m] = factO[f]!;
    preds[m] = p;
    if (facts) facts[m] = f;
    m++;
  }
  const picked = facts ? facts.subarray(0, m) : new Int32Array(0);
  const columns: Record<string, Column> = Object.create(null);
  for (const key of keys) {
    if (key === 'predicate') columns[key] = { kind: 'dict', codes: preds.subarray(0, m), dict: s.predName };
    else if (key === 'predicate_class') columns[key] = classColumn(s.predClass, preds.subarray(0, m));
    else if (key === 'confidence') columns[key] = { kind: 'float', values: confidences(rc, picked) };
    else if (key === 'source_count') columns[key] = { kind: 'int', values: sourceCounts(rc, picked) };
    else return undefined;
  }
  const type: Column = { kind: 'dict', codes: preds.subarray(0, m), dict: typeNames };
  return { size: m, start: start.subarray(0, m), end: end.subarray(0, m), type, columns };
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
