// audit(claim_id | entity): a claim's provenance trail, or the trail of every claim about an entity.
import { KbNotFoundError, KbValidationError } from '../errors.js';
import type { ReadContext } from '../graph/read.js';
import type { Claim, EntitySummary } from '../types.js';
import { iso } from './common.js';

export interface AuditEvent {
  event: 'ingested' | 'retracted' | 'degraded';
  at: string;
  /** For retracted / degraded: the retraction that did it (its source and reason). */
  source_id?: string;
  reason?: string;
}

export interface ClaimTrail {
  claim: Claim;
  source: { source_id: string; source_type: string };
  /** Claims this one was derived from (provenance.derived_from), transitively upward; depth 1 = named directly. */
  derived_from: (Claim & { depth: number })[];
  /** Claims derived from this one, transitively downward. */
  dependants: (Claim & { depth: number; derived_via: string })[];
  /** Other claims of the same fact (same subject, predicate, object) from other sources, any status. */
  corroborating: Claim[];
  /** Ingestion, retraction and degradation, oldest first. */
  events: AuditEvent[];
}

export type Audit =
  | ({ kind: 'claim' } & ClaimTrail)
  | { kind: 'entity'; entity: EntitySummary; claims: { claim: Claim; events: AuditEvent[] }[] };

export function audit(rc: ReadContext, ref: unknown): Audit {
  if (typeof ref !== 'string' || ref.trim() === '')
    throw new KbValidationError('invalid_type', 'ref', 'must be a claim id or an entity id or name');
  const s = rc.s;
  const c = s.claimIndexOf(ref);
  if (c !== undefined && rc.exists(c)) return { kind: 'claim', ...claimTrail(rc, c) };
  const e = rc.lookupEntity(ref, undefined, true);
  if (e < 0) throw new KbNotFoundError('claim or entity', ref);
  const claims: { claim: Claim; events: AuditEvent[] }[] = [];
  const ids: number[] = [];
  for (let f = s.firstFact(e); f >= 0; f = s.nextFact(f, e))
    for (let x = s.factFirst[f]!; x >= 0; x = s.claimNextInFact[x]!) if (rc.exists(x)) ids.push(x);
  ids.sort((a, b) => a - b);
  for (const x of ids) claims.push({ claim: rc.toClaim(x), events: eventsOf(rc, x) });
  return { kind: 'entity', entity: rc.summary(e), claims };
}

function claimTrail(rc: ReadContext, c: number): ClaimTrail {
  const s = rc.s;
  const entry = s.claimEntryOf(c);
  const up: (Claim & { depth: number })[] = [];
  const seenUp = new Set<number>([c]);
  let frontier = [c];
  for (let d = 1; frontier.length; d++) {
    const next: number[] = [];
    for (const x of frontier) {
      for (const id of s.claimEntryOf(x).provenance.derived_from ?? []) {
        const p = s.claimIndexOf(id);
        if (p === undefined || seenUp.has(p) || !rc.exists(p)) continue;
        seenUp.add(p);
        next.push(p);
        up.push({ ...rc.toClaim(p), depth: d });
      }
    }
    frontier = next;
  }
  const down = downstreamOf(rc, c);
  const corroborating: Claim[] = [];
  const src = s.claimSource[c]!;
  for (let x = s.factFirst[s.claimFact[c]!]!; x >= 0; x = s.claimNextInFact[x]!)
    if (x !== c && s.claimSource[x] !== src && rc.exists(x)) corroborating.push(rc.toClaim(x));
  return {
    claim: rc.toClaim(c),
    source: { source_id: entry.provenance.source_id, source_type: entry.provenance.source_type },
    derived_from: up,
    dependants: down,
    corroborating,
    events: eventsOf(rc, c),
  };
}

/**
 * Claims derived from claim `c` (transitively, through provenance.derived_from), nearest first, each with the
 * claim it was derived via: the trail's dependants and the view's traceDownstream.
 */
export function downstreamOf(rc: ReadContext, c: number): (Claim & { depth: number; derived_via: string })[] {
  const s = rc.s;
  const out: (Claim & { depth: number; derived_via: string })[] = [];
  const seen = new Set<number>([c]);
  let frontier = [c];
  for (let d = 1; frontier.length; d++) {
    const next: number[] = [];
    for (const x of frontier) {
      for (const dep of s.dependents.get(x) ?? []) {
        if (seen.has(dep) || !rc.exists(dep)) continue;
        seen.add(dep);
        next.push(dep);
        out.push({ ...rc.toClaim(dep), depth: d, derived_via: s.claimIdOf(x) });
      }
    }
    frontier = next;
  }
  return out;
}

/** The claim's events up to the context's moment, from the retraction log (which keeps the reasons). */
export function eventsOf(rc: ReadContext, c: number): AuditEvent[] {
  const s = rc.s;
  const out: AuditEvent[] = [{ event: 'ingested', at: iso(s.claimTs[c]!) }];
  const rts = s.claimRetractTs[c]!;
  const dts = s.claimDegradeTs[c]!;
  if (rts === Infinity && dts === Infinity) return out;
  for (const r of s.retractions) {
    if (r.ts > rc.cutoff) break;
    if ((r.ts === rts && r.retracted.includes(c)) || (r.ts === dts && r.degraded.includes(c)))
      out.push({
        event: r.ts === rts && r.retracted.includes(c) ? 'retracted' : 'degraded',
        at: iso(r.ts),
        source_id: r.source_id,
        reason: r.reason,
      });
  }
  return out;
}
