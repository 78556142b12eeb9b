// The in-memory index derived from the log, a facade over its parts: entities (entities.ts), facts
// (facts.ts), claim columns with sources (claim-columns.ts), the apply (apply.ts), and the derived indexes
// fed by it (derived.ts; the inquiry book first). Entities, predicates, sources and facts are interned to
// dense integers; per-claim attributes live in parallel typed arrays (columnar). Everything here is rebuilt by
// replaying the log in seq order, so the apply must be deterministic: the same log always gives the same
// index, whichever process replays it. Readers see it only as a ReadSnapshot (snapshot.ts).
import type { ClaimEntry, RetractEntry } from '../model/entries.js';
import type { ClaimRun } from '../model/claim-run.js';
import { normalizeToken } from '../model/normalize.js';
import type { Registry } from '../model/registry.js';
import { FactAdjacency } from './adjacency.js';
import { addClaim, applyRetract, distinctActiveSources } from './apply.js';
import { applyClaimRun } from './apply-run.js';
import { ClaimColumns } from './claim-columns.js';
import { emptyClaimFields, type ClaimFields } from './claim-fields.js';
import type { DerivedIndex, DerivedIndexFactory } from './derived.js';
import { Entities } from './entities.js';
import type { PendingEvent } from './events.js';
import { Facts } from './facts.js';
import { InquiryBook, type InquiryState } from './inquiries.js';
import type { ReadSnapshot } from './snapshot.js';
import { StringTable } from './string-table.js';

export { ACTIVE, DEGRADED, RETRACTED, STATUS_NAMES } from './claim-columns.js';
export { factText, contentIdOf } from './facts.js';
export type { PendingEvent } from './events.js';

/**
 * Copy-on-write copies of a graph (what-if views, clone.ts) that may still read its maps, held weakly (a view
 * that nobody reads any more costs nothing): each is detached before the graph changes. Kept beside the
 * graph, not in it, so that copying a graph never copies this.
 */
const readers = new WeakMap<GraphState, Set<WeakRef<{ detach(): void }>>>();

/** No rows: a walk follows every list from its first fact. */
const NO_ROWS = new FactAdjacency(0, 0, new Int32Array(0), new Int32Array(0));

export interface Retraction {
  ts: number;
  source_id: string;
  reason: string;
  cascade: boolean;
  retracted: number[];
  degraded: number[];
}

export class GraphState implements ReadSnapshot {
  readonly entities: Entities;
  readonly predIndex = new Map<string, number>();
  readonly predName: string[] = [];
  readonly predClass: string[] = [];
  readonly facts: Facts;
  readonly claims = new ClaimColumns();
  /** The derived indexes this graph's apply feeds (the inquiry book first); see derived.ts. */
  readonly derived: DerivedIndex[] = [];
  readonly inquiryBook: InquiryBook;
  /** Retractions in log order (for audit and for at()). */
  readonly retractions: Retraction[] = [];
  /** Facts whose subject is their object (counted once in adjacency). */
  selfLoops = 0;
  /** Where applyClaimRun leaves what its warming reads summed (so that they are not dropped as unused). */
  warmed = 0;
  activeClaims = 0;
  lastTs = 0;
  /** Bumped before every change (beforeChange): see ReadSnapshot.version. */
  version = 0;
  /** Whether the apply queues claim_ingested (off when nobody listens: one object less per claim). */
  emitIngested = true;
  /** Whether the apply queues claim_corroborated (off when nobody listens: no content_id hash per event). */
  emitCorroborated = true;
  /** Whether a copy may read through to this graph (see addReader); checked per applied entry. */
  private hasReaders = false;
  /** Each entity's facts in a row (adjacency.ts), made for walks: a cache, not part of the index. */
  private adjacencyRows: FactAdjacency | undefined = undefined;
  private walksWithoutRows = 0;
  /** See deadFacts: the bits, the facts they cover, and how many retractions there were when they were made. */
  private deadBits: Uint32Array | null = null;
  private deadBitsFacts = 0;
  private deadBitsAt = -1;
  /** The claim being applied (refilled per claim; see claim-fields.ts). */
  private readonly fields: ClaimFields = emptyClaimFields();

  constructor(readonly registry: Registry) {
    this.entities = new Entities(registry);
    this.facts = new Facts(this.entities, this.predName);
    this.inquiryBook = new InquiryBook(registry, this);
    this.derived.push(this.inquiryBook);
  }

  /** Adds a derived index, made for this graph; it must be registered before the log is replayed. */
  register(factory: DerivedIndexFactory<GraphState>): DerivedIndex {
    const index = factory(this);
    if (this.derived.some((d) => d.name === index.name)) {
      throw new Error(`a derived index '${index.name}' is registered already`);
    }
    this.derived.push(index);
    return index;
  }

  /** The derived index of that name, or undefined. */
  derivedIndex(name: string): DerivedIndex | undefined {
    return this.derived.find((d) => d.name === name);
  }

  /** An applied entry moves the clock, so the next write's timestamp never goes back. */
  touch(ts: number): void {
    this.beforeChange();
    if (ts > this.lastTs) this.lastTs = ts;
  }

  /** A copy that reads through to this graph until detached (see `readers`). */
  addReader(copy: { detach(): void }): void {
    let set = readers.get(this);
    if (!set) {
      set = new Set();
      readers.set(this, set);
    }
    set.add(new WeakRef(copy));
    this.hasReaders = true;
  }

  /** Called before anything in the graph or its derived indexes changes: copies stop reading through. */
  beforeChange(): void {
    this.version++;
    if (!this.hasReaders) return;
    this.hasReaders = false;
    const set = readers.get(this);
    if (set === undefined) return;
    readers.delete(this);
    for (const r of set) r.deref()?.detach();
  }

  /** A new predicate (normalised name), with its class. */
  addPredicate(predicate: string, predicateClass: string): number {
    const p = this.predName.length;
    this.predIndex.set(predicate, p);
    this.predName.push(predicate);
    this.predClass.push(normalizeToken(predicateClass));
    return p;
  }

  // ---- the read snapshot: entities -----------------------------------------------------------------
  // Getters hand out the columns' current arrays (a column's array is replaced when it grows).
  get entityIndex(): Map<string, number> {
    return this.entities.index;
  }
  get entityIds(): string[] {
    return this.entities.ids;
  }
  get entityType(): string[] {
    return this.entities.type;
  }
  get entityNorm(): string[] {
    return this.entities.norm;
  }
  get entityName(): string[] {
    return this.entities.name;
  }
  get entityAliases(): Map<number, Set<string>> {
    return this.entities.aliases;
  }
  get entityOtherTypes(): Map<number, string[]> {
    return this.entities.otherTypes;
  }
  get nameIndex(): Map<string, number[]> {
    return this.entities.nameIndex;
  }
  get entityActive(): Int32Array {
    return this.entities.active.a;
  }
  // The lists are made when first read (Facts.listsReady): every way in to them goes through one of these.
  firstFact(e: number): number {
    return this.facts.firstFact(e);
  }
  nextFact(f: number, e: number): number {
    return this.facts.nextFact(f, e);
  }
  get entityFirstFact(): Int32Array {
    return this.facts.listHeads;
  }
  get factNextS(): Int32Array {
    return this.facts.listNextS;
  }
  get factNextO(): Int32Array {
    return this.facts.listNextO;
  }
  /**
   * The rows, made again when the facts added since are more than an eighth of those they cover. Making them is
   * a pass over the facts, so it waits for the 32nd walk that asks: one-off walks (a what-if view's, whose base
   * has none) walk the lists, and stale rows serve meanwhile (the lists' tails hold the rest).
   */
  get adjacency(): FactAdjacency {
    const a = this.adjacencyRows;
    if (a !== undefined && this.facts.count - a.facts <= Math.max(1024, a.facts >> 3)) return a;
    if (++this.walksWithoutRows < 32) return a ?? NO_ROWS;
    this.walksWithoutRows = 0;
    this.adjacencyRows = new FactAdjacency(this.facts.count, this.entities.count, this.factS, this.factO);
    return this.adjacencyRows;
  }
  visitMarks(): Uint32Array {
    return this.entities.visitMarks();
  }
  nextVisitEpoch(): number {
    return this.entities.nextVisitEpoch();
  }
  /** Entity index for a normalised (type, canonical name), or undefined. */
  entityOf(type: string, norm: string): number | undefined {
    return this.entities.entityOf(type, norm);
  }
  /**
   * A vocabulary was registered: raw spellings may now mean other entities (synonyms), and unified types share
   * their entities from now on.
   */
  vocabularyApplied(): void {
    this.beforeChange();
    this.entities.forgetRawNames();
    this.entities.unifyTypes();
  }

  /**
   * Facts without a live claim, one bit each (fact f: bit f & 31 of word f >>> 5), over facts 0..deadFactsCovered-1;
   * null when no fact ever lost its last live claim. Only a retraction makes a fact's last live claim
   * inactive, and a fact is added live, so the bits are made again only after a retraction (one pass over the
   * facts), and facts added since are live; a claim added since to a dead fact makes it live again, so a set
   * bit is only a hint (its source count says). A walk reads a bit, in 100 KB at a million claims, where it
   * read a fact's source count.
   */
  get deadFacts(): Uint32Array | null {
    if (this.retractions.length === 0) return null;
    if (this.deadBitsAt !== this.retractions.length) {
      const n = this.facts.count;
      const sources = this.factSources;
      const bits = new Uint32Array((n >>> 5) + 1);
      for (let f = 0; f < n; f++) if (sources[f]! <= 0) bits[f >>> 5]! |= 1 << (f & 31);
      this.deadBits = bits;
      this.deadBitsFacts = n;
      this.deadBitsAt = this.retractions.length;
    }
    return this.deadBits;
  }
  get deadFactsCovered(): number {
    return this.deadFacts === null ? 0 : this.deadBitsFacts;
  }

  // ---- sources, facts ------------------------------------------------------------------------------
  get sourceIndex(): ReadonlyMap<string, number> {
    return this.claims.sourceIndex;
  }
  get sourceIds(): string[] {
    return this.claims.sourceIds;
  }
  get sourceTypeName(): string[] {
    return this.claims.sourceTypeName;
  }
  // Deliberate likeness: one getter per column, as the snapshot interface declares them (facts here, claims below).
  get factCount(): number {
    return this.facts.count;
  }
  get factS(): Int32Array {
    return this.facts.S.a;
  }
  get factO(): Int32Array {
    return this.facts.O.a;
  }
  get factP(): Int32Array {
    return this.facts.P.a;
  }
  get factFirst(): Int32Array {
    return this.facts.first.a;
  }
  get factClaimCount(): Int32Array {
    return this.facts.claimCount.a;
  }
  get factSources(): Int32Array {
    return this.facts.sources.a;
  }
  factTextOf(f: number): string {
    return this.facts.textOf(f);
  }
  contentIdOfFact(f: number): string {
    return this.facts.contentIdOf(f);
  }
  factByContentId(contentId: string): number | undefined {
    return this.facts.byContentId(contentId);
  }
  distinctActiveSources(f: number): number {
    return distinctActiveSources(this, f);
  }
  claimsOfFact(f: number): number[] {
    const out: number[] = [];
    const next = this.claims.nextInFact.a;
    for (let c = this.facts.first.a[f]!; c >= 0; c = next[c]!) out.push(c);
    return out;
  }

  // ---- claims --------------------------------------------------------------------------------------
  // Deliberate likeness: one getter per column, as the snapshot interface declares them (claims here, facts above).
  get claimCount(): number {
    return this.claims.count;
  }
  get claimFact(): Int32Array {
    return this.claims.fact.a;
  }
  get claimSource(): Int32Array {
    return this.claims.source.a;
  }
  get claimSourceType(): Int32Array {
    return this.claims.sourceType.a;
  }
  get claimConf(): Float64Array {
    return this.claims.conf.a;
  }
  get claimTs(): Float64Array {
    return this.claims.ts.a;
  }
  get claimStatus(): Uint8Array {
    return this.claims.status.a;
  }
  get claimRetractTs(): Float64Array {
    return this.claims.retractTimes;
  }
  get claimDegradeTs(): Float64Array {
    return this.claims.degradeTimes;
  }
  get claimNextInFact(): Int32Array {
    return this.claims.nextInFact.a;
  }
  get dependents(): Map<number, number[]> {
    return this.claims.dependents;
  }
  claimIdOf(c: number): string {
    return this.claims.idOf(c);
  }
  /** The index of a claim by its id, or undefined. */
  claimIndexOf(claimId: string): number | undefined {
    return this.claims.indexOf(claimId);
  }
  claimsOfSource(src: number): number[] {
    return this.claims.claimsOfSource(src);
  }

  claimPayloadOf(c: number): unknown {
    return this.claims.payload.get(c);
  }

  /** The claim as it was written (raw spellings, provenance, payload). */
  claimEntryOf(c: number): ClaimEntry {
    const C = this.claims;
    const E = this.entities;
    const f = C.fact.a[c]!;
    const raw = C.raw.get(c);
    const s = this.factS[f]!;
    const o = this.factO[f]!;
    const p = this.factP[f]!;
    const prov = C.provenance.get(c) ?? {
      source_type: raw ? raw.source_type : C.sourceTypeName[C.sourceType.a[c]!]!,
      source_id: C.sourceIds[C.source.a[c]!]!,
    };
    const e: ClaimEntry = {
      kind: 'claim',
      claim_id: this.claimIdOf(c),
      subject: raw ? raw.subject : [E.name[s]!, E.type[s]!],
      predicate: raw ? raw.predicate : [this.predName[p]!, this.predClass[p]!],
      object: raw ? raw.object : [E.name[o]!, E.type[o]!],
      provenance: prov,
      confidence: C.conf.a[c]!,
    };
    if (C.payload.has(c)) e.payload = C.payload.get(c);
    return e;
  }

  // ---- inquiries (the first derived index) ---------------------------------------------------------
  get inquiries(): readonly InquiryState[] {
    return this.inquiryBook.list;
  }
  get inquiryIndex(): ReadonlyMap<string, number> {
    return this.inquiryBook.index;
  }

  // ---- applying log entries (apply.ts) -------------------------------------------------------------

  /**
   * Adds a claim entry, or finds that it duplicates a stored one: see addClaim. `idPrefix`/`idCounter`: set
   * for an id the engine generated (see ClaimIds), so it is kept as two numbers without parsing it back; -1
   * parses `claim_id`.
   */
  applyClaim(e: ClaimEntry, ts: number, events: PendingEvent[] | null, idPrefix = '', idCounter = -1): number {
    this.beforeChange();
    const prov = e.provenance;
    let keys = 0;
    for (const _ in prov) keys++;
    const a = this.fields;
    a.subjectName = e.subject[0];
    a.subjectType = e.subject[1];
    a.relationship = e.predicate[0];
    a.predicateClass = e.predicate[1];
    a.objectName = e.object[0];
    a.objectType = e.object[1];
    a.sourceType = prov.source_type;
    a.sourceId = prov.source_id;
    a.confidence = e.confidence;
    a.provenance = keys > 2 ? prov : null;
    a.payload = e.payload;
    a.idPrefix = idPrefix;
    a.idCounter = idCounter;
    a.claimId = e.claim_id;
    a.ts = ts;
    a.events = events;
    a.hashes[0] = StringTable.hash(a.subjectName);
    a.hashes[1] = StringTable.hash(a.objectName);
    a.hashes[2] = StringTable.hash(a.sourceId);
    return addClaim(this, a);
  }

  /**
   * Applies the claims of a run in order, writing what addClaim returned for claim i to out[i]. `compact`: the
   * run is a write not yet in the log, whose kept claims get consecutive ids from id_start (a duplicate takes
   * no id); otherwise claim i has id id_start + i, as stored. Returns how many claims were added.
   */
  applyRun(r: ClaimRun, ts: number, events: PendingEvent[] | null, out: Int32Array | null, compact: boolean): number {
    this.beforeChange();
    return applyClaimRun(this, this.fields, r, ts, events, out, compact);
  }

  /** Retracts every non-retracted claim of the source; with cascade, degrades their dependants transitively. */
  applyRetract(e: RetractEntry, ts: number, events: PendingEvent[] | null): ReturnType<typeof applyRetract> {
    this.beforeChange();
    return applyRetract(this, e, ts, events);
  }
}
