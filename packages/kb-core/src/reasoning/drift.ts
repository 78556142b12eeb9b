// drift({ since, until }): what changed in the interval (since, until], read from the claims' creation,
// retraction and degradation times (the log's), so it answers for any past interval and on at(t) views
// (until is then capped at the view's moment).
import { KbValidationError } from '../errors.js';
import { ReadContext } from '../graph/read.js';
import type { EntitySummary } from '../types.js';
import { type FactRef, factRef, factStrength, intArg, iso, momentArg, nowOf, optionsArg } from './common.js';

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
  const inWindow = (t: number) => t > since && t <= until;
  const added: number[] = [];
  const retracted: number[] = [];
  const degraded: number[] = [];
  const touched = new Uint8Array(s.factCount);
  const firstSeen = new Float64Array(s.entityIds.length).fill(Infinity);
  for (let c = 0; c < s.claimCount; c++) {
    const ts = s.claimTs[c]!;
    if (ts > until) continue;
    const f = s.claimFact[c]!;
    const a = s.factS[f]!;
    const b = s.factO[f]!;
    if (ts < firstSeen[a]!) firstSeen[a] = ts;
    if (ts < firstSeen[b]!) firstSeen[b] = ts;
    const n = added.length + retracted.length + degraded.length;
    if (inWindow(ts)) added.push(c);
    if (inWindow(s.claimRetractTs[c]!)) retracted.push(c);
    if (inWindow(s.claimDegradeTs[c]!)) degraded.push(c);
    if (added.length + retracted.length + degraded.length > n) touched[f] = 1;
  }
  const newEntities: number[] = [];
  for (let e = 0; e < firstSeen.length; e++) if (inWindow(firstSeen[e]!)) newEntities.push(e);
  const before = new ReadContext(s, since);
  const after = new ReadContext(s, until);
  const changed: RelationshipChange[] = [];
  let changedCount = 0;
  for (let f = 0; f < s.factCount; f++) {
    if (!touched[f]) continue;
    const b = factStrength(before, f);
    const a = factStrength(after, f);
    if (a.confidence === b.confidence && a.source_count === b.source_count) continue;
    // Content ids are hashed on demand: only the listed relationships pay for theirs.
    if (changedCount++ < limit)
      changed.push({
        ...factRef(rc, f),
        confidence_before: b.confidence,
        confidence_after: a.confidence,
        sources_before: b.source_count,
        sources_after: a.source_count,
      });
  }
  const ids = (l: number[]) => l.slice(0, limit).map((c) => s.claimIdOf(c));
  return {
    since: iso(since),
    until: iso(until),
    counts: {
      added: added.length,
      retracted: retracted.length,
      degraded: degraded.length,
      new_entities: newEntities.length,
      changed_relationships: changedCount,
    },
    added_claim_ids: ids(added),
    retracted_claim_ids: ids(retracted),
    degraded_claim_ids: ids(degraded),
    new_entities: newEntities.slice(0, limit).map((e) => after.summary(e)),
    changed_relationships: changed,
  };
}
