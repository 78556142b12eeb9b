// Applying log entries to the graph: adding a claim (which is also how a duplicate is found), retracting a
// source's claims, degrading their dependants. Ingest and replay both come here, so the same log always gives
// the same index. This is the ingest's hot path: it keeps the columns' layout and its loops monomorphic, and
// allocates nothing per claim beyond what the index keeps.
import type { RetractEntry } from '../model/entries.js';
import { normalizeName, normalizeToken } from '../model/normalize.js';
import { ACTIVE, DEGRADED, RETRACTED } from './claim-columns.js';
import type { ClaimFields } from './claim-fields.js';
import type { PendingEvent } from './events.js';
import type { GraphState } from './state.js';

/** A claim of fact f from source src that is not retracted, or -1. */
function duplicateInFact(g: GraphState, f: number, src: number): number {
  const C = g.claims;
  const next = C.nextInFact.a;
  const source = C.source.a;
  const status = C.status.a;
  for (let c = g.facts.first.a[f]!; c >= 0; c = next[c]!) {
    if (source[c] === src && status[c] !== RETRACTED) return c;
  }
  return -1;
}

/**
 * Adds a claim, or finds that it duplicates a stored one: the same fact from the same source, not retracted.
 * Returns the new claim's index, or `-2 - d` where d is the duplicated claim's index (then nothing changes).
 * A duplicate can reach the log only when two processes raced, and the first in log order wins.
 */
export function addClaim(g: GraphState, a: ClaimFields): number {
  const {
    subjectName,
    subjectType: subjectTypeRaw,
    relationship,
    predicateClass,
    objectName,
    objectType: objectTypeRaw,
    sourceType,
    sourceId,
    idCounter,
    ts,
  } = a;
  const E = g.entities;
  const F = g.facts;
  const C = g.claims;
  // Every applied entry moves the clock, a duplicate too, so the next write's timestamp never goes back.
  if (ts > g.lastTs) g.lastTs = ts;
  const subjectType = normalizeToken(subjectTypeRaw);
  const objectType = normalizeToken(objectTypeRaw);
  const predicate = normalizeToken(relationship);
  // Known spellings of known entities: one lookup instead of normalising, then finding the entity.
  const hashes = a.hashes;
  const sCode = E.rawEntity(subjectType, subjectName, hashes[0]);
  const oCode = E.rawEntity(objectType, objectName, hashes[1]);
  const sNorm = sCode >= 0 ? '' : g.registry.canonicalName(subjectType, normalizeName(subjectName));
  const oNorm = oCode >= 0 ? '' : g.registry.canonicalName(objectType, normalizeName(objectName));
  let s = sCode >= 0 ? sCode >> 1 : (E.entityOf(subjectType, sNorm) ?? -1);
  let o = oCode >= 0 ? oCode >> 1 : (E.entityOf(objectType, oNorm) ?? -1);
  let p = g.predIndex.get(predicate) ?? -1;
  let src = C.sourceOf(sourceId, hashes[2]) ?? -1;
  let f = s >= 0 && o >= 0 && p >= 0 ? (F.table.get(s, p, o) ?? -1) : -1;
  if (f >= 0 && src >= 0) {
    const dup = duplicateInFact(g, f, src);
    if (dup >= 0) return -2 - dup;
  }

  // A new spelling of a known entity is remembered (and kept as an alias) as well.
  if (sCode < 0) s = E.intern(subjectType, sNorm, subjectName, s);
  // (A new object may be the subject just added: a self-loop.)
  if (oCode < 0) o = E.intern(objectType, oNorm, objectName, o >= 0 ? o : (E.entityOf(objectType, oNorm) ?? -1));
  if (p < 0) p = g.addPredicate(predicate, predicateClass);
  // Bit 1: the subject's raw name is its entity's display name; bit 2: the same for the object.
  const sameName = (sCode >= 0 && (sCode & 1) === 0 ? 1 : 0) | (oCode >= 0 && (oCode & 1) === 0 ? 2 : 0);
  const c = C.ids.count;
  if (c >= C.fact.limit) C.reserve(c + 1);
  let newSource = true;
  if (f < 0) {
    f = F.add(s, p, o, c);
    if (o === s) g.selfLoops++;
  } else {
    const next = C.nextInFact.a;
    const source = C.source.a;
    const status = C.status.a;
    for (let other = F.first.a[f]!; other >= 0; other = next[other]!) {
      if (source[other] === src && status[other] === ACTIVE) newSource = false;
    }
    const last = F.last.a;
    next[last[f]!] = c;
    last[f] = c;
    F.claimCount.a[f]!++;
  }
  if (src < 0) src = C.addSource(sourceId, c);
  else if (C.sourceListsBuilt) {
    C.nextInSource.a[C.sourceLast.a[src]!] = c;
    C.sourceLast.a[src] = c;
  }
  // Almost always a known spelling: the map lookup inline, interning only for a new one.
  const st = C.sourceTypeIndex.get(sourceType) ?? C.sourceTypeOf(sourceType);

  if (idCounter >= 0) C.ids.pushGenerated(a.idPrefix, idCounter);
  else C.ids.push(a.claimId);
  C.indexMap?.set(idCounter >= 0 ? C.ids.get(c) : a.claimId, c);
  // Reserved columns: the status starts ACTIVE (0), the times at Infinity, the list links at -1.
  C.fact.a[c] = f;
  C.source.a[c] = src;
  C.sourceType.a[c] = st;
  C.conf.a[c] = a.confidence;
  C.ts.a[c] = ts;
  keepExtras(g, a, c, s, o, p, st, sameName, subjectType, objectType, predicate);

  // A new source for the fact corroborates it; the same source again cannot reach here (duplicate).
  g.activeClaims++;
  const active = E.active.a;
  active[s]!++;
  if (o !== s) active[o]!++;
  const sources = F.sources.a;
  if (newSource) sources[f]!++;
  const events = a.events;
  if (events) {
    if (g.emitIngested) events.push({ name: 'claim_ingested', claim: c });
    if (newSource && g.emitCorroborated && sources[f]! >= 2) {
      events.push({ name: 'claim_corroborated', fact: f, count: sources[f]!, claim: c });
    }
  }
  const indexes = g.derived;
  for (let i = 0; i < indexes.length; i++) {
    const d = indexes[i]!;
    if (d.wantsClaims) d.onClaim(c, ts, events);
  }
  return c;
}

/** Distinct sources among the fact's active claims. */
export function distinctActiveSources(g: GraphState, f: number): number {
  const C = g.claims;
  const seen = new Set<number>();
  for (let c = g.facts.first.a[f]!; c >= 0; c = C.nextInFact.a[c]!) {
    if (C.status.a[c] === ACTIVE) seen.add(C.source.a[c]!);
  }
  return seen.size;
}

function setInactive(g: GraphState, c: number, status: number, ts: number): void {
  const C = g.claims;
  const F = g.facts;
  const was = C.status.a[c]!;
  if (was === status || was === RETRACTED) return;
  C.status.a[c] = status;
  C.timesReady();
  if (status === RETRACTED) C.retractTs.a[c] = ts;
  else C.degradeTs.a[c] = ts;
  if (was !== ACTIVE) return;
  g.activeClaims--;
  const f = C.fact.a[c]!;
  const s = F.S.a[f]!;
  const o = F.O.a[f]!;
  g.entities.active.a[s]!--;
  if (o !== s) g.entities.active.a[o]!--;
  F.sources.a[f] = distinctActiveSources(g, f);
}

/** Retracts every non-retracted claim of the source; with cascade, degrades their dependants transitively. */
export function applyRetract(
  g: GraphState,
  e: RetractEntry,
  ts: number,
  events: PendingEvent[] | null,
): { retracted: number[]; degraded: number[] } {
  if (ts > g.lastTs) g.lastTs = ts;
  const C = g.claims;
  const src = C.sourceOf(e.source_id);
  const retracted: number[] = [];
  const degraded: number[] = [];
  if (src !== undefined) {
    for (const c of C.claimsOfSource(src)) {
      if (C.status.a[c] !== RETRACTED) {
        setInactive(g, c, RETRACTED, ts);
        retracted.push(c);
      }
    }
    if (e.cascade) {
      const queue = [...retracted];
      const seen = new Set<number>(queue);
      for (let qi = 0; qi < queue.length; qi++) {
        for (const d of C.dependents.get(queue[qi]!) ?? []) {
          if (seen.has(d)) continue;
          seen.add(d);
          queue.push(d);
          if (C.status.a[d] === ACTIVE) {
            setInactive(g, d, DEGRADED, ts);
            degraded.push(d);
          }
        }
      }
    }
  }
  g.retractions.push({ ts, source_id: e.source_id, reason: e.reason, cascade: e.cascade, retracted, degraded });
  events?.push({ name: 'source_retracted', source_id: e.source_id, reason: e.reason, retracted, degraded });
  return { retracted, degraded };
}

/**
 * What a claim keeps beside its columns: its raw spellings when they differ from what the index can rebuild,
 * its provenance and payload, and its place among the dependents of the claims it derives from.
 */
// Deliberate likeness: a positional parameter list (no object per claim on the apply path), alike in shape only to
// graph-algorithms' checkPairs.
function keepExtras(
  g: GraphState,
  a: ClaimFields,
  c: number,
  s: number,
  o: number,
  p: number,
  st: number,
  sameName: number,
  subjectType: string,
  objectType: string,
  predicate: string,
): void {
  const E = g.entities;
  const C = g.claims;
  // Keep the raw spellings only when they differ from what the index can rebuild. Predicate p is named
  // `predicate` (it was looked up by that), and entity s has type subjectType unless it was found under a type
  // unified with its own (a protein claim about an entity first stated as a gene), which leaves a mark in
  // otherTypes: the entities' types are loaded only then.
  const names = E.name;
  if (
    ((sameName & 1) === 0 && a.subjectName !== names[s]) ||
    a.subjectType !== subjectType ||
    ((sameName & 2) === 0 && a.objectName !== names[o]) ||
    a.objectType !== objectType ||
    (E.otherTypes.size !== 0 && (E.type[s] !== subjectType || E.type[o] !== objectType)) ||
    a.relationship !== predicate ||
    a.predicateClass !== g.predClass[p] ||
    a.sourceType !== C.sourceTypeName[st]
  ) {
    C.raw.set(c, {
      subject: [a.subjectName, a.subjectType],
      predicate: [a.relationship, a.predicateClass],
      object: [a.objectName, a.objectType],
      source_type: a.sourceType,
    });
  }
  if (a.provenance) C.provenance.set(c, a.provenance);
  if (a.payload !== undefined) C.payload.set(c, a.payload);
  const derived = a.provenance?.derived_from;
  if (derived) {
    for (const id of derived) {
      const parent = C.indexOf(id);
      if (parent === undefined) continue;
      const list = C.dependents.get(parent);
      if (list) list.push(c);
      else C.dependents.set(parent, [c]);
    }
  }
}
