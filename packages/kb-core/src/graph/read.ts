// Read access to the index as of a moment. `cutoff` is a timestamp (ms): Infinity reads the live state
// (status arrays and maintained counters, O(1)); a finite cutoff (at()) re-derives visibility per claim
// from creation / retraction / degradation times, so the same code answers "as of then".
import type { Claim, ClaimStatus, EntitySummary, Relationship } from '../types.js';
import { normalizeName, normalizeToken } from '../model/normalize.js';
import { ACTIVE, STATUS_NAMES } from './state.js';
import type { ReadSnapshot } from './snapshot.js';

export class ReadContext {
  readonly live: boolean;
  constructor(
    readonly s: ReadSnapshot,
    readonly cutoff: number,
  ) {
    this.live = cutoff === Infinity;
  }

  /** Claim exists at the cutoff and is active (neither retracted nor degraded) then. */
  isLive(c: number): boolean {
    const s = this.s;
    if (this.live) return s.claimStatus[c] === ACTIVE;
    const t = this.cutoff;
    return s.claimTs[c]! <= t && s.claimRetractTs[c]! > t && s.claimDegradeTs[c]! > t;
  }

  exists(c: number): boolean {
    return this.live || this.s.claimTs[c]! <= this.cutoff;
  }

  statusOf(c: number): ClaimStatus {
    const s = this.s;
    if (this.live) return STATUS_NAMES[s.claimStatus[c]!]!;
    if (s.claimRetractTs[c]! <= this.cutoff) return 'retracted';
    if (s.claimDegradeTs[c]! <= this.cutoff) return 'degraded';
    return 'active';
  }

  factHasLive(f: number): boolean {
    if (this.live) return this.s.factSources[f]! > 0;
    const s = this.s;
    for (let c = s.factFirst[f]!; c >= 0; c = s.claimNextInFact[c]!) if (this.isLive(c)) return true;
    return false;
  }

  factLiveClaims(f: number): number[] {
    const out: number[] = [];
    const s = this.s;
    for (let c = s.factFirst[f]!; c >= 0; c = s.claimNextInFact[c]!) if (this.isLive(c)) out.push(c);
    return out;
  }

  entityClaimCount(e: number): number {
    const s = this.s;
    if (this.live) return s.entityActive[e]!;
    let n = 0;
    for (let f = s.firstFact(e); f >= 0; f = s.nextFact(f, e))
      for (let c = s.factFirst[f]!; c >= 0; c = s.claimNextInFact[c]!) if (this.isLive(c)) n++;
    return n;
  }

  /** The entity had a claim (of any status) by the cutoff. */
  entityExists(e: number): boolean {
    if (this.live) return true;
    const s = this.s;
    for (let f = s.firstFact(e); f >= 0; f = s.nextFact(f, e))
      for (let c = s.factFirst[f]!; c >= 0; c = s.claimNextInFact[c]!) if (this.exists(c)) return true;
    return false;
  }

  summary(e: number, claimCount = this.entityClaimCount(e)): EntitySummary {
    const s = this.s;
    return { id: s.entityIds[e]!, name: s.entityName[e]!, type: s.entityType[e]!, claim_count: claimCount };
  }

  /** Whether entity e was stated with this (normalised) type: its own, or another unified with it. */
  hasType(e: number, type: string): boolean {
    const s = this.s;
    return s.entityType[e] === type || (s.entityOtherTypes.get(e)?.includes(type) ?? false);
  }

  /**
   * Whether two entities are one target kept apart: the same name under types unified with each other (a
   * gene and its protein, both in the base from before the vocabulary that unifies them was registered).
   * Predictions and bridges never propose a link between them.
   */
  sameTarget(a: number, b: number): boolean {
    const s = this.s;
    return s.entityNorm[a] === s.entityNorm[b] && s.registry.sameEntityType(s.entityType[a]!, s.entityType[b]!);
  }

  /** The entity's own type first, then the other (unified) types it was stated with. */
  typesOf(e: number): string[] {
    const s = this.s;
    return [s.entityType[e]!, ...(s.entityOtherTypes.get(e) ?? [])];
  }

  /**
   * Entity index for an id (`gene:brca1`) or a name (any case/spacing, synonyms followed). Among several
   * entities sharing a name (a disease and a phenotype), the one with most active claims wins. A type or an
   * id's type finds an entity of a type unified with it (`protein:parp1` finds `gene:parp1` under `bio`).
   */
  lookupEntity(ref: string, type?: string, includeInactive = false): number {
    const s = this.s;
    if (typeof ref !== 'string' || ref.trim() === '') return -1;
    // Every id is `type:name` (entityId), so a ref without a colon is a name: no lookup in the id map.
    const colon = ref.indexOf(':');
    const exact = colon < 0 ? undefined : s.entityIndex.get(ref);
    if (exact !== undefined && this.entityClaimCount(exact) > 0) return exact;
    if (includeInactive) {
      // Audit reads: an entity whose claims are all retracted still answers to its id or name.
      const live = this.lookupEntity(ref, type);
      if (live >= 0) return live;
      if (exact !== undefined && this.entityExists(exact)) return exact;
      const t = type === undefined ? undefined : normalizeToken(type);
      for (const n of s.registry.canonicalCandidates(normalizeName(ref))) {
        for (const e of s.nameIndex.get(n) ?? [])
          if ((t === undefined || s.registry.sameEntityType(s.entityType[e]!, t)) && this.entityExists(e)) return e;
      }
      return -1;
    }
    // A type unified with the entity's own (a protein for an entity first stated as a gene) finds it too, as an
    // ingest of that (name, type) would.
    const wantType = type === undefined ? undefined : normalizeToken(type);
    if (colon > 0) {
      // `type:name` written by hand, with other spacing or case, or with a synonym as the name.
      const t = normalizeToken(ref.slice(0, colon));
      const id = s.entityOf(t, s.registry.canonicalName(t, normalizeName(ref.slice(colon + 1))));
      if (id !== undefined && this.ofType(id, wantType) && this.entityClaimCount(id) > 0) return id;
    }
    // Among the entities of the name (or of a name it is a synonym of), the one with most active claims.
    const norm = normalizeName(ref);
    const candidates = s.registry.canonicalCandidates(norm);
    let best = -1;
    let bestCount = 0;
    for (let k = 0; k < candidates.length; k++) {
      const list = s.nameIndex.get(candidates[k]!);
      if (list === undefined) continue;
      for (let i = 0; i < list.length; i++) {
        const e = list[i]!;
        if (!this.ofType(e, wantType)) continue;
        const n = this.entityClaimCount(e);
        if (n > bestCount) {
          best = e;
          bestCount = n;
        }
      }
    }
    return best;
  }

  /** Whether entity e is of the (normalised) type, or of one unified with it; any type when undefined. */
  private ofType(e: number, type: string | undefined): boolean {
    return type === undefined || this.s.registry.sameEntityType(this.s.entityType[e]!, type);
  }

  toClaim(c: number): Claim {
    const s = this.s;
    const e = s.claimEntryOf(c);
    const f = s.claimFact[c]!;
    const claim: Claim = {
      claim_id: e.claim_id,
      content_id: s.contentIdOfFact(f),
      subject: [e.subject[0], e.subject[1]],
      predicate: [e.predicate[0], e.predicate[1]],
      object: [e.object[0], e.object[1]],
      subject_id: s.entityIds[s.factS[f]!]!,
      object_id: s.entityIds[s.factO[f]!]!,
      provenance: e.provenance,
      confidence: e.confidence,
      status: this.statusOf(c),
      created_at: new Date(s.claimTs[c]!).toISOString(),
    };
    if (e.payload !== undefined) claim.payload = e.payload;
    const r = s.registry;
    if (r.constrainsClaims) {
      // The claim's own types: its entity may have been first stated with a type unified with it.
      const w = r.violations(
        normalizeToken(e.subject[1]),
        s.predName[s.factP[f]!]!,
        normalizeToken(e.predicate[1]),
        normalizeToken(e.object[1]),
      );
      if (w.length) claim.warnings = w;
    }
    return claim;
  }

  /**
   * The fact seen from entity `from`: confidence is a noisy-OR over distinct sources, each source counted
   * with its most confident claim: 1 - prod(1 - c_source). Null when no active claim supports it.
   */
  relationship(f: number, from: number): Relationship | null {
    const s = this.s;
    let ids: string[] | undefined;
    let conf = 0;
    let sources = 0;
    if (s.factClaimCount[f] === 1) {
      const c = s.factFirst[f]!;
      if (!this.isLive(c)) return null;
      ids = [s.claimIdOf(c)];
      conf = s.claimConf[c]!;
      sources = 1;
    } else {
      const best = new Map<number, number>();
      ids = [];
      for (let c = s.factFirst[f]!; c >= 0; c = s.claimNextInFact[c]!) {
        if (!this.isLive(c)) continue;
        ids.push(s.claimIdOf(c));
        const src = s.claimSource[c]!;
        const prev = best.get(src);
        if (prev === undefined || s.claimConf[c]! > prev) best.set(src, s.claimConf[c]!);
      }
      if (ids.length === 0) return null;
      let miss = 1;
      for (const x of best.values()) miss *= 1 - x;
      conf = 1 - miss;
      sources = best.size;
    }
    const outgoing = s.factS[f] === from;
    const target = outgoing ? s.factO[f]! : s.factS[f]!;
    const p = s.factP[f]!;
    return {
      predicate: s.predName[p]!,
      predicate_class: s.predClass[p]!,
      target: this.summary(target),
      confidence: conf,
      direction: outgoing ? 'outgoing' : 'incoming',
      claim_ids: ids,
      content_id: s.contentIdOfFact(f),
      source_count: sources,
    };
  }

  /** Entities with at least one active claim at the cutoff. */
  *visibleEntities(): Generator<number> {
    const n = this.s.entityIds.length;
    for (let e = 0; e < n; e++) if (this.entityClaimCount(e) > 0) yield e;
  }

  /** Claims (indices) that exist at the cutoff and are active. */
  *liveClaims(): Generator<number> {
    const n = this.s.claimCount;
    for (let c = 0; c < n; c++) if (this.isLive(c)) yield c;
  }
}
