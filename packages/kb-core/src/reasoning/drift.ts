// drift({ since, until }): what changed in the interval (since, until], read from the claims' creation,
// retraction and degradation times (the log's), so it answers for any past interval and on at(t) views
// (until is then capped at the view's moment).
import { KbValidationError } from '../errors.js';
import { ReadContext } from '../graph/read.js';
import type { EntitySummary } from '../types.js';
import { type FactRef, factRef, intArg, iso, momentArg, noisyOr, nowOf, optionsArg } from './common.js';
import { scanColumns, strengthInto } from './columns.js';

export interface DriftOptions {
  since: Date | string | number;
  /** Default: now (the view's moment for an at(t) view). */
  until?: Date | string | number;
  /** Most items listed per kind (counts are always complete); default 100. */
  limit?: number;
}

export interface RelationshipChange extends FactRef {
  confidence_before: number;
  confidence_after: number;
  sources_before: number;
  sources_after: number;
}

export interface Drift {
  since: string;
  until: string;
  counts: { added: number; retracted: number; degraded: number; new_entities: number; changed_relationships: number };
  added_claim_ids: string[];
  retracted_claim_ids: string[];
  degraded_claim_ids: string[];
  new_entities: EntitySummary[];
  changed_relationships: RelationshipChange[];
}

export function drift(rc: ReadContext, options: unknown): Drift {
  const o = optionsArg<DriftOptions>(options);
  if (o.since === undefined) throw new KbValidationError('missing_field', 'since', 'is required');
  const since = momentArg(o.since, 'since');
  let until = o.until === undefined ? nowOf(rc) : momentArg(o.until, 'until');
  if (since > until) throw new KbValidationError('out_of_range', 'since', 'must not be after until');
  const limit = intArg(o.limit, 'limit', 100, 0, 100_000);
  if (until > rc.cutoff) until = rc.cutoff;
  const s = rc.s;
  const k = scanColumns(rc);
  const { claimTs, claimRetractTs, claimDegradeTs, claimFact, factS, factO } = k;
  // One pass over the claims on columns fetched once. Only the first `limit` ids of each kind are kept (in
  // log order, as listed); the counts are complete.
  const added: number[] = [];
  const retracted: number[] = [];
  const degraded: number[] = [];
  let addedCount = 0;
  let retractedCount = 0;
  let degradedCount = 0;
  const touched = new Uint8Array(k.factCount);
  const firstSeen = new Float64Array(s.entityIds.length).fill(Infinity);
  for (let c = 0; c < k.claimCount; c++) {
    const ts = claimTs[c]!;
    if (ts > until) continue;
    const f = claimFact[c]!;
    const a = factS[f]!;
    const b = factO[f]!;
    if (ts < firstSeen[a]!) firstSeen[a] = ts;
    if (ts < firstSeen[b]!) firstSeen[b] = ts;
    let hit = false;
    if (ts > since) {
      if (addedCount++ < limit) added.push(c);
      hit = true;
    }
    const rt = claimRetractTs[c]!;
    if (rt > since && rt <= until) {
      if (retractedCount++ < limit) retracted.push(c);
      hit = true;
    }
    const dt = claimDegradeTs[c]!;
    if (dt > since && dt <= until) {
      if (degradedCount++ < limit) degraded.push(c);
      hit = true;
    }
    if (hit) touched[f] = 1;
  }
  const newEntities: number[] = [];
  let newEntityCount = 0;
  for (let e = 0; e < firstSeen.length; e++) {
    const t = firstSeen[e]!;
    if (t > since && t <= until && newEntityCount++ < limit) newEntities.push(e);
  }
  const after = new ReadContext(s, until);
  const changed: RelationshipChange[] = [];
  let changedCount = 0;
  const was = new Float64Array(2);
  const is = new Float64Array(2);
  for (let f = 0; f < k.factCount; f++) {
    if (!touched[f]) continue;
    strengthInto(k, f, since, noisyOr, was);
    strengthInto(k, f, until, noisyOr, is);
    if (is[0] === was[0] && is[1] === was[1]) continue;
    // Content ids are hashed on demand: only the listed relationships pay for theirs.
    if (changedCount++ < limit)
      changed.push({
        ...factRef(rc, f),
        confidence_before: was[0]!,
        confidence_after: is[0]!,
        sources_before: was[1]!,
        sources_after: is[1]!,
      });
  }
  const ids = (l: number[]) => l.map((c) => s.claimIdOf(c));
  return {
    since: iso(since),
    until: iso(until),
    counts: {
      added: addedCount,
      retracted: retractedCount,
      degraded: degradedCount,
      new_entities: newEntityCount,
      changed_relationships: changedCount,
    },
    added_claim_ids: ids(added),
    retracted_claim_ids: ids(retracted),
    degraded_claim_ids: ids(degraded),
    new_entities: newEntities.map((e) => after.summary(e)),
    changed_relationships: changed,
  };
}
