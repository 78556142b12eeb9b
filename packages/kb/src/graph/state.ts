// The in-memory index derived from the log. Entities, predicates, sources and facts are interned to
// dense integers; per-claim attributes live in parallel arrays (columnar), adjacency lists hold fact
// indices. Everything here is rebuilt by replaying the log in seq order, so `apply*` must be deterministic:
// the same log always gives the same index, whichever process replays it.
import { hash } from 'node:crypto';
import type { ClaimEntry, InquiryEntry, RetractEntry } from '../store/types.js';
import type { ClaimStatus } from '../types.js';
import { entityId, normalizeName, normalizeToken } from '../model/normalize.js';
import type { Registry } from '../model/registry.js';

export const ACTIVE = 0;
export const DEGRADED = 1;
export const RETRACTED = 2;
export const STATUS_NAMES: readonly ClaimStatus[] = ['active', 'degraded', 'retracted'];

/** A claim's subject/predicate/object after normalisation, computed once per claim. */
export interface ResolvedClaim {
  subjectType: string;
  subjectId: string;
  subjectNorm: string;
  objectType: string;
  objectId: string;
  objectNorm: string;
  predicate: string;
  predicateClass: string;
  /** subject id, predicate and object id joined: the identity of the fact. */
  factKey: string;
}

export interface InquiryState {
  entry: InquiryEntry;
  subjectNorms: string[];
  objectNorms: string[];
  hint: string;
  createdTs: number;
  matchedTs: number;
  answers: number[];
}

export type PendingEvent =
  | { name: 'claim_ingested'; claim: number }
  | { name: 'claim_corroborated'; content_id: string; count: number; claim: number }
  | { name: 'source_retracted'; source_id: string; reason: string; retracted: number[]; degraded: number[] }
  | { name: 'inquiry_matched'; inquiry_id: string; claim: number };

/** content_id: the first 128 bits of SHA-256 over the canonical fact key, hex. */
export function contentIdOf(factKey: string): string {
  return hash('sha256', factKey, 'hex').slice(0, 32);
}

export class GraphState {
  constructor(readonly registry: Registry) {}

  // ---- entities ---------------------------------------------------------------------------------
  readonly entityIndex = new Map<string, number>();
  readonly entityIds: string[] = [];
  readonly entityType: string[] = [];
  readonly entityNorm: string[] = [];
  readonly entityName: string[] = [];
  /** Facts (indices) in which the entity is subject or object. */
  readonly entityFacts: number[][] = [];
  /** Active claims mentioning the entity (a self-loop counts once). */
  readonly entityActive: number[] = [];
  readonly entityAliases = new Map<number, Set<string>>();
  /** Normalised canonical name -> entities with that name (any type). */
  readonly nameIndex = new Map<string, number[]>();

  // ---- predicates, sources ------------------------------------------------------------------------
  readonly predIndex = new Map<string, number>();
  readonly predName: string[] = [];
  readonly predClass: string[] = [];
  readonly sourceIndex = new Map<string, number>();
  readonly sourceIds: string[] = [];
  readonly sourceClaims: number[][] = [];
  readonly sourceTypeIndex = new Map<string, number>();
  readonly sourceTypeName: string[] = [];

  // ---- facts (corroboration groups) -----------------------------------------------------------------
  readonly factIndex = new Map<string, number>();
  readonly contentIndex = new Map<string, number>();
  readonly factContent: string[] = [];
  readonly factS: number[] = [];
  readonly factO: number[] = [];
  readonly factP: number[] = [];
  readonly factClaims: number[][] = [];
  /** Distinct sources among the fact's active claims. */
  readonly factSources: number[] = [];

  // ---- claims (columnar) ----------------------------------------------------------------------------
  readonly claimIndex = new Map<string, number>();
  readonly claimEntry: ClaimEntry[] = [];
  readonly claimFact: number[] = [];
  readonly claimSource: number[] = [];
  readonly claimSourceType: number[] = [];
  readonly claimConf: number[] = [];
  readonly claimTs: number[] = [];
  readonly claimStatus: number[] = [];
  readonly claimRetractTs: number[] = [];
  readonly claimDegradeTs: number[] = [];
  /** claim -> claims whose provenance.derived_from names it. */
  readonly dependents = new Map<number, number[]>();
  activeClaims = 0;

  // ---- inquiries ------------------------------------------------------------------------------------
  readonly inquiries: InquiryState[] = [];
  readonly inquiryIndex = new Map<string, number>();
  /** Normalised name -> open inquiries mentioning it as subject or object. */
  private readonly openInquiryNames = new Map<string, Set<number>>();

  /** Retractions in log order (for audit and for at()). */
  readonly retractions: { ts: number; source_id: string; reason: string; cascade: boolean; retracted: number[]; degraded: number[] }[] = [];

  lastTs = 0;

  // ---- resolution -----------------------------------------------------------------------------------

  resolveClaim(e: { subject: [string, string]; predicate: [string, string]; object: [string, string] }): ResolvedClaim {
    const subjectType = normalizeToken(e.subject[1]);
    const subjectNorm = this.registry.canonicalName(subjectType, normalizeName(e.subject[0]));
    const objectType = normalizeToken(e.object[1]);
    const objectNorm = this.registry.canonicalName(objectType, normalizeName(e.object[0]));
    const predicate = normalizeToken(e.predicate[0]);
    const subjectId = entityId(subjectType, subjectNorm);
    const objectId = entityId(objectType, objectNorm);
    return {
      subjectType, subjectId, subjectNorm, objectType, objectId, objectNorm, predicate,
      predicateClass: normalizeToken(e.predicate[1]),
      factKey: `${subjectId}\u0001${predicate}\u0001${objectId}`,
    };
  }

  /** The claim index of a stored, non-retracted claim of the same fact from the same source, or -1. */
  findDuplicate(factKey: string, sourceId: string): number {
    const f = this.factIndex.get(factKey);
    if (f === undefined) return -1;
    const src = this.sourceIndex.get(sourceId);
    if (src === undefined) return -1;
    for (const c of this.factClaims[f]!) {
      if (this.claimSource[c] === src && this.claimStatus[c] !== RETRACTED) return c;
    }
    return -1;
  }

  private internEntity(id: string, type: string, norm: string, raw: string): number {
    let e = this.entityIndex.get(id);
    if (e !== undefined) {
      const shown = raw.trim();
      if (shown !== this.entityName[e]) {
        let set = this.entityAliases.get(e);
        if (!set) this.entityAliases.set(e, (set = new Set()));
        if (set.size < 32) set.add(shown);
      }
      return e;
    }
    e = this.entityIds.length;
    this.entityIndex.set(id, e);
    this.entityIds.push(id);
    this.entityType.push(type);
    this.entityNorm.push(norm);
    const display = this.registry.displayName(type, norm);
    this.entityName.push(display ?? raw.trim());
    if (display !== undefined && display !== raw.trim()) this.entityAliases.set(e, new Set([raw.trim()]));
    this.entityFacts.push([]);
    this.entityActive.push(0);
    const byName = this.nameIndex.get(norm);
    if (byName) byName.push(e);
    else this.nameIndex.set(norm, [e]);
    return e;
  }

  private intern(map: Map<string, number>, list: string[], key: string): number {
    let i = map.get(key);
    if (i === undefined) {
      i = list.length;
      map.set(key, i);
      list.push(key);
    }
    return i;
  }

  // ---- applying log entries -------------------------------------------------------------------------

  /**
   * Adds a claim. Returns its index, or -1 if it duplicates a stored claim (possible only when two
   * processes raced; the first in log order wins, deterministically).
   */
  applyClaim(e: ClaimEntry, ts: number, r: ResolvedClaim | undefined, events: PendingEvent[] | null): number {
    if (ts > this.lastTs) this.lastTs = ts;
    r ??= this.resolveClaim(e);
    const sourceId = e.provenance.source_id;
    let f = this.factIndex.get(r.factKey);
    if (f !== undefined && this.findDuplicate(r.factKey, sourceId) >= 0) return -1;
    if (this.claimIndex.has(e.claim_id)) return -1;

    const s = this.internEntity(r.subjectId, r.subjectType, r.subjectNorm, e.subject[0]);
    const o = this.internEntity(r.objectId, r.objectType, r.objectNorm, e.object[0]);
    let p = this.predIndex.get(r.predicate);
    if (p === undefined) {
      p = this.predName.length;
      this.predIndex.set(r.predicate, p);
      this.predName.push(r.predicate);
      this.predClass.push(r.predicateClass);
    }
    if (f === undefined) {
      f = this.factContent.length;
      const cid = contentIdOf(r.factKey);
      this.factIndex.set(r.factKey, f);
      this.contentIndex.set(cid, f);
      this.factContent.push(cid);
      this.factS.push(s);
      this.factO.push(o);
      this.factP.push(p);
      this.factClaims.push([]);
      this.factSources.push(0);
      this.entityFacts[s]!.push(f);
      if (o !== s) this.entityFacts[o]!.push(f);
    }
    const src = this.intern(this.sourceIndex, this.sourceIds, sourceId);
    if (src === this.sourceClaims.length) this.sourceClaims.push([]);
    const st = this.intern(this.sourceTypeIndex, this.sourceTypeName, normalizeToken(e.provenance.source_type));

    const c = this.claimEntry.length;
    this.claimIndex.set(e.claim_id, c);
    this.claimEntry.push(e);
    this.claimFact.push(f);
    this.claimSource.push(src);
    this.claimSourceType.push(st);
    this.claimConf.push(e.confidence);
    this.claimTs.push(ts);
    this.claimStatus.push(ACTIVE);
    this.claimRetractTs.push(Infinity);
    this.claimDegradeTs.push(Infinity);
    this.sourceClaims[src]!.push(c);
    const derived = e.provenance.derived_from;
    if (derived) {
      for (const id of derived) {
        const parent = this.claimIndex.get(id);
        if (parent === undefined) continue;
        const list = this.dependents.get(parent);
        if (list) list.push(c);
        else this.dependents.set(parent, [c]);
      }
    }

    // A new source for the fact corroborates it; the same source again cannot reach here (duplicate).
    const group = this.factClaims[f]!;
    let newSource = true;
    for (const other of group) {
      if (this.claimSource[other] === src && this.claimStatus[other] === ACTIVE) newSource = false;
    }
    group.push(c);
    this.activeClaims++;
    this.entityActive[s]!++;
    if (o !== s) this.entityActive[o]!++;
    if (newSource) this.factSources[f]!++;
    if (events) {
      events.push({ name: 'claim_ingested', claim: c });
      if (newSource && this.factSources[f]! >= 2) {
        events.push({ name: 'claim_corroborated', content_id: this.factContent[f]!, count: this.factSources[f]!, claim: c });
      }
    }
    if (this.openInquiryNames.size) this.matchInquiries(c, r, ts, events);
    return c;
  }

  private setInactive(c: number, status: number, ts: number): void {
    const was = this.claimStatus[c]!;
    if (was === status || was === RETRACTED) return;
    this.claimStatus[c] = status;
    if (status === RETRACTED) this.claimRetractTs[c] = ts;
    else this.claimDegradeTs[c] = ts;
    if (was !== ACTIVE) return;
    this.activeClaims--;
    const f = this.claimFact[c]!;
    const s = this.factS[f]!;
    const o = this.factO[f]!;
    this.entityActive[s]!--;
    if (o !== s) this.entityActive[o]!--;
    this.factSources[f] = this.distinctActiveSources(f);
  }

  distinctActiveSources(f: number): number {
    const group = this.factClaims[f]!;
    if (group.length === 1) return this.claimStatus[group[0]!] === ACTIVE ? 1 : 0;
    const seen = new Set<number>();
    for (const c of group) if (this.claimStatus[c] === ACTIVE) seen.add(this.claimSource[c]!);
    return seen.size;
  }

  /** Retracts every non-retracted claim of the source; with cascade, degrades their dependants transitively. */
  applyRetract(e: RetractEntry, ts: number, events: PendingEvent[] | null): { retracted: number[]; degraded: number[] } {
    if (ts > this.lastTs) this.lastTs = ts;
    const src = this.sourceIndex.get(e.source_id);
    const retracted: number[] = [];
    const degraded: number[] = [];
    if (src !== undefined) {
      for (const c of this.sourceClaims[src]!) {
        if (this.claimStatus[c] !== RETRACTED) {
          this.setInactive(c, RETRACTED, ts);
          retracted.push(c);
        }
      }
      if (e.cascade) {
        const queue = [...retracted];
        const seen = new Set<number>(queue);
        while (queue.length) {
          const c = queue.shift()!;
          for (const d of this.dependents.get(c) ?? []) {
            if (seen.has(d)) continue;
            seen.add(d);
            queue.push(d);
            if (this.claimStatus[d] === ACTIVE) {
              this.setInactive(d, DEGRADED, ts);
              degraded.push(d);
            }
          }
        }
      }
    }
    this.retractions.push({ ts, source_id: e.source_id, reason: e.reason, cascade: e.cascade, retracted, degraded });
    events?.push({ name: 'source_retracted', source_id: e.source_id, reason: e.reason, retracted, degraded });
    return { retracted, degraded };
  }

  applyInquiry(e: InquiryEntry, ts: number): number {
    if (ts > this.lastTs) this.lastTs = ts;
    const i = this.inquiries.length;
    const state: InquiryState = {
      entry: e,
      subjectNorms: this.registry.canonicalCandidates(normalizeName(e.subject)),
      objectNorms: this.registry.canonicalCandidates(normalizeName(e.object)),
      hint: e.predicate_hint.trim() === '' ? '' : normalizeToken(e.predicate_hint),
      createdTs: ts,
      matchedTs: Infinity,
      answers: [],
    };
    this.inquiries.push(state);
    this.inquiryIndex.set(e.inquiry_id, i);
    for (const n of [...state.subjectNorms, ...state.objectNorms]) {
      let set = this.openInquiryNames.get(n);
      if (!set) this.openInquiryNames.set(n, (set = new Set()));
      set.add(i);
    }
    return i;
  }

  /** Whether a claim between entities named a and b (either direction) with this predicate answers inquiry i. */
  inquiryFits(i: number, subjectNorm: string, objectNorm: string, predicate: string): boolean {
    const q = this.inquiries[i]!;
    const forward = q.subjectNorms.includes(subjectNorm) && q.objectNorms.includes(objectNorm);
    const backward = q.subjectNorms.includes(objectNorm) && q.objectNorms.includes(subjectNorm);
    if (!forward && !backward) return false;
    return q.hint === '' || predicate === q.hint || predicate.includes(q.hint) || q.hint.includes(predicate);
  }

  private matchInquiries(c: number, r: ResolvedClaim, ts: number, events: PendingEvent[] | null): void {
    const candidates = this.openInquiryNames.get(r.subjectNorm);
    if (!candidates) return;
    for (const i of [...candidates]) {
      if (!this.inquiryFits(i, r.subjectNorm, r.objectNorm, r.predicate)) continue;
      const q = this.inquiries[i]!;
      q.matchedTs = ts;
      q.answers.push(c);
      for (const n of [...q.subjectNorms, ...q.objectNorms]) {
        const set = this.openInquiryNames.get(n);
        set?.delete(i);
        if (set?.size === 0) this.openInquiryNames.delete(n);
      }
      events?.push({ name: 'inquiry_matched', inquiry_id: q.entry.inquiry_id, claim: c });
    }
  }
}
