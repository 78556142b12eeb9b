// The in-memory index derived from the log. Entities, predicates, sources and facts are interned to
// dense integers; per-claim attributes live in parallel arrays (columnar), adjacency lists hold fact
// indices. Everything here is rebuilt by replaying the log in seq order, so `apply*` must be deterministic:
// the same log always gives the same index, whichever process replays it.
import { hash } from 'node:crypto';
import type { ClaimEntry, RetractEntry } from '../store/types.js';
import type { ClaimRun } from '../model/claim-run.js';
import { provenanceOfRun } from '../model/claim-run.js';
import type { ClaimStatus } from '../types.js';
import { entityId, normalizeName, normalizeToken } from '../model/normalize.js';
import type { Registry } from '../model/registry.js';
import { FactTable } from './fact-table.js';
import { StringTable } from './string-table.js';
import { ClaimIds } from './claim-ids.js';
import { InquiryBook, type InquiryState } from './inquiries.js';
import type { DerivedIndex, DerivedIndexFactory } from './derived.js';
import type { PendingEvent } from './events.js';
import type { ReadSnapshot } from './snapshot.js';
import { emptyClaimFields, type ClaimFields } from './claim-fields.js';
import { F64Column, I32Column, U8Column } from './columns.js';

export const ACTIVE = 0;
export const DEGRADED = 1;
export const RETRACTED = 2;
export const STATUS_NAMES: readonly ClaimStatus[] = ['active', 'degraded', 'retracted'];

export type { PendingEvent } from './events.js';

/** The canonical text of a fact: subject id, predicate, object id. Same fact, same text, whatever the source. */
export function factText(subjectId: string, predicate: string, objectId: string): string {
  return `${subjectId}\u0001${predicate}\u0001${objectId}`;
}

/** content_id: the first 128 bits of SHA-256 over the fact's canonical text, hex. */
export function contentIdOf(text: string): string {
  return hash('sha256', text, 'hex').slice(0, 32);
}

/** Raw spellings of a claim when they differ from the canonical ones the index keeps (kept sparsely). */
interface RawOverride {
  subject: [string, string];
  predicate: [string, string];
  object: [string, string];
  source_type: string;
}

// Entity indices are Int32-friendly; keep well inside that.
const ENTITY_KEY_LIMIT = 2 ** 30;
// Fact indices are doubled in entity list slots (see linkFact), which must stay int32.
const FACT_LIMIT = 2 ** 30 - 1;

export class GraphState implements ReadSnapshot {
  constructor(readonly registry: Registry) {
    this.inquiryBook = new InquiryBook(registry, this);
    this.derived.push(this.inquiryBook);
  }

  /** The claim being applied (refilled per claim; see claim-fields.ts). */
  private readonly fields: ClaimFields = emptyClaimFields();

  /** The derived indexes this graph's apply feeds (the inquiry book first); see derived.ts. */
  readonly derived: DerivedIndex[] = [];

  /** Adds a derived index, made for this graph; it must be registered before the log is replayed. */
  register(factory: DerivedIndexFactory<GraphState>): DerivedIndex {
    const index = factory(this);
    if (this.derived.some((d) => d.name === index.name)) throw new Error(`a derived index '${index.name}' is registered already`);
    this.derived.push(index);
    return index;
  }

  /** The derived index of that name, or undefined. */
  derivedIndex(name: string): DerivedIndex | undefined {
    return this.derived.find((d) => d.name === name);
  }

  /** An applied entry moves the clock, so the next write's timestamp never goes back. */
  touch(ts: number): void {
    if (ts > this.lastTs) this.lastTs = ts;
  }

  // ---- entities ---------------------------------------------------------------------------------
  readonly entityIndex = new Map<string, number>();
  /** type -> canonical name -> entity. Looked up with the normaliser's cached strings, whose hashes V8 keeps. */
  private readonly entityByType = new Map<string, Map<string, number>>();
  private lastType = '';
  private lastTypeMap: Map<string, number> | undefined;
  /** normalised type -> raw name as written in claims -> entity. */
  private readonly rawNames = new Map<string, StringTable>();
  private lastRawType = '';
  private lastRawMap: StringTable | undefined;
  private lastSourceId = '';
  private lastSource = -1;
  readonly entityIds: string[] = [];
  readonly entityType: string[] = [];
  readonly entityNorm: string[] = [];
  readonly entityName: string[] = [];
  // Facts in which an entity is subject or object, in the order they were added: a list threaded through the
  // fact columns (factNextS continues the subject's list, factNextO the object's; a self-loop is on the
  // subject's only), walked with firstFact/nextFact. Typed columns instead of an array per entity: adding a
  // fact touches two ints instead of growing two heap arrays, and leaves the collector nothing to trace.
  private readonly col_entityFirstFact = new I32Column();
  /** The entity's last fact * 2, plus 1 when the entity is that fact's object (which next column to extend). */
  private readonly col_entityLastSlot = new I32Column();
  private readonly col_factNextS = new I32Column(-1);
  private readonly col_factNextO = new I32Column(-1);
  /** Facts whose subject is their object (counted once in adjacency). */
  selfLoops = 0;
  /** Active claims mentioning the entity (a self-loop counts once). */
  private readonly col_entityActive = new I32Column();
  get entityActive(): Int32Array {
    return this.col_entityActive.a;
  }
  readonly entityAliases = new Map<number, Set<string>>();
  /** Normalised canonical name -> entities with that name (any type). */
  readonly nameIndex = new Map<string, number[]>();

  /** The entity's first fact, or -1. */
  firstFact(e: number): number {
    return this.col_entityFirstFact.a[e]!;
  }

  /** The fact after f in entity e's list (f must be on it), or -1. */
  nextFact(f: number, e: number): number {
    return this.col_factS.a[f] === e ? this.col_factNextS.a[f]! : this.col_factNextO.a[f]!;
  }

  /** Room for `size` claims in every claim column (their count is ids.count). */
  private reserveClaims(size: number): void {
    for (const col of [this.col_claimFact, this.col_claimSource, this.col_claimSourceType, this.col_claimNextInFact, this.col_claimNextInSource]) col.reserve(size);
    for (const col of [this.col_claimConf, this.col_claimTs, this.col_claimRetractTs, this.col_claimDegradeTs]) col.reserve(size);
    this.col_claimStatus.reserve(size);
  }

  /** Room for `size` facts in every fact column (their count is col_factS.n). */
  private reserveFacts(size: number): void {
    for (const col of [this.col_factS, this.col_factO, this.col_factP, this.col_factFirst, this.col_factLast, this.col_factClaimCount, this.col_factSources, this.col_factNextS, this.col_factNextO]) col.reserve(size);
  }

  private linkFact(e: number, f: number, asObject: 0 | 1): void {
    const last = this.col_entityLastSlot.a[e]!;
    if (last < 0) this.col_entityFirstFact.a[e] = f;
    else if ((last & 1) === 0) this.col_factNextS.a[last >> 1] = f;
    else this.col_factNextO.a[last >> 1] = f;
    this.col_entityLastSlot.a[e] = f * 2 + asObject;
  }

  // ---- predicates, sources ------------------------------------------------------------------------
  readonly predIndex = new Map<string, number>();
  readonly predName: string[] = [];
  readonly predClass: string[] = [];
  readonly sourceIndex = new Map<string, number>();
  /** The same as sourceIndex, for the ingest path's lookups (see string-table.ts). */
  private readonly sourceTable = new StringTable();
  readonly sourceIds: string[] = [];
  // A source's claims chain through claimNextInSource (-1 ends), from sourceFirst to sourceLast. Only
  // retraction walks them, so they are built on the first retraction (one scan of claimSource) and kept up to
  // date from then on: until then an ingest does not touch them.
  private sourceListsBuilt = false;
  private readonly col_sourceFirst = new I32Column(-1);
  private get sourceFirst(): Int32Array {
    return this.col_sourceFirst.a;
  }
  private readonly col_sourceLast = new I32Column();
  private get sourceLast(): Int32Array {
    return this.col_sourceLast.a;
  }
  readonly sourceTypeIndex = new Map<string, number>();
  readonly sourceTypeName: string[] = [];

  // ---- facts (corroboration groups) -----------------------------------------------------------------
  private readonly col_factS = new I32Column();
  get factS(): Int32Array {
    return this.col_factS.a;
  }
  private readonly col_factO = new I32Column();
  get factO(): Int32Array {
    return this.col_factO.a;
  }
  private readonly col_factP = new I32Column();
  get factP(): Int32Array {
    return this.col_factP.a;
  }
  private readonly facts = new FactTable(this.col_factS, this.col_factP, this.col_factO);
  /** First and last claim of the fact; claims chain through claimNextInFact (-1 ends). */
  private readonly col_factFirst = new I32Column();
  get factFirst(): Int32Array {
    return this.col_factFirst.a;
  }
  private readonly col_factLast = new I32Column();
  private get factLast(): Int32Array {
    return this.col_factLast.a;
  }
  private readonly col_factClaimCount = new I32Column();
  get factClaimCount(): Int32Array {
    return this.col_factClaimCount.a;
  }
  /** Distinct sources among the fact's active claims. */
  private readonly col_factSources = new I32Column();
  get factSources(): Int32Array {
    return this.col_factSources.a;
  }
  /** content_id per fact, computed when first needed (hashing is the costliest step of an ingest). */
  private readonly factContent = new Map<number, string>();
  private contentIndex: Map<string, number> | undefined;

  // ---- claims (columnar) ----------------------------------------------------------------------------
  /** claim_id -> claim index, built on first lookup (a string map costs more than the rest of an ingest). */
  private claimIndexMap: Map<string, number> | undefined;
  private readonly ids = new ClaimIds();
  private readonly col_claimFact = new I32Column();
  get claimFact(): Int32Array {
    return this.col_claimFact.a;
  }
  private readonly col_claimSource = new I32Column();
  get claimSource(): Int32Array {
    return this.col_claimSource.a;
  }
  private readonly col_claimSourceType = new I32Column();
  get claimSourceType(): Int32Array {
    return this.col_claimSourceType.a;
  }
  private readonly col_claimConf = new F64Column();
  get claimConf(): Float64Array {
    return this.col_claimConf.a;
  }
  private readonly col_claimTs = new F64Column();
  get claimTs(): Float64Array {
    return this.col_claimTs.a;
  }
  private readonly col_claimStatus = new U8Column();
  get claimStatus(): Uint8Array {
    return this.col_claimStatus.a;
  }
  private readonly col_claimRetractTs = new F64Column(Infinity);
  get claimRetractTs(): Float64Array {
    return this.col_claimRetractTs.a;
  }
  private readonly col_claimDegradeTs = new F64Column(Infinity);
  get claimDegradeTs(): Float64Array {
    return this.col_claimDegradeTs.a;
  }
  private readonly col_claimNextInFact = new I32Column(-1);
  get claimNextInFact(): Int32Array {
    return this.col_claimNextInFact.a;
  }
  private readonly col_claimNextInSource = new I32Column(-1);
  private get claimNextInSource(): Int32Array {
    return this.col_claimNextInSource.a;
  }
  private readonly claimRaw = new Map<number, RawOverride>();
  private readonly claimProvenance = new Map<number, ClaimEntry['provenance']>();
  private readonly claimPayload = new Map<number, unknown>();
  /** claim -> claims whose provenance.derived_from names it. */
  readonly dependents = new Map<number, number[]>();
  activeClaims = 0;

  // ---- inquiries ------------------------------------------------------------------------------------
  readonly inquiryBook: InquiryBook;
  get inquiries(): readonly InquiryState[] {
    return this.inquiryBook.list;
  }
  get inquiryIndex(): ReadonlyMap<string, number> {
    return this.inquiryBook.index;
  }

  /** Retractions in log order (for audit and for at()). */
  readonly retractions: { ts: number; source_id: string; reason: string; cascade: boolean; retracted: number[]; degraded: number[] }[] = [];

  lastTs = 0;
  /** Whether applyClaim queues claim_ingested (off when nobody listens: one object less per claim). */
  emitIngested = true;
  /** Whether applyClaim queues claim_corroborated (off when nobody listens: no content_id hash per event). */
  emitCorroborated = true;

  // Scratch marks for graph expansions (queries run synchronously, one at a time): entity -> epoch last visited.
  private marks = new Uint32Array(0);
  private markEpoch = 0;

  /** The scratch marks, at least one per entity; pair with nextVisitEpoch(). */
  visitMarks(): Uint32Array {
    if (this.marks.length < this.entityIds.length) {
      this.marks = new Uint32Array(Math.max(1024, this.entityIds.length * 2));
      this.markEpoch = 0;
    }
    return this.marks;
  }

  /** A value no entity is marked with yet. */
  nextVisitEpoch(): number {
    if (++this.markEpoch === 0xffffffff) {
      this.marks.fill(0);
      this.markEpoch = 1;
    }
    return this.markEpoch;
  }

  /** The index of a claim by its id, or undefined. */
  claimIndexOf(claimId: string): number | undefined {
    if (!this.claimIndexMap) {
      const m = new Map<string, number>();
      for (let c = 0; c < this.claimCount; c++) m.set(this.claimIdOf(c), c);
      this.claimIndexMap = m;
    }
    return this.claimIndexMap.get(claimId);
  }

  claimIdOf(c: number): string {
    return this.ids.get(c);
  }

  get claimCount(): number {
    return this.ids.count;
  }

  get factCount(): number {
    return this.col_factS.n;
  }

  // ---- resolution ---------------------------------------------------------------------------------

  /**
   * For a raw name already seen with this (normalised) type: entity * 2, plus 1 when the raw name differs
   * from the entity's display name; -1 when not seen.
   */
  private rawEntity(type: string, raw: string): number {
    let m: StringTable | undefined;
    if (type === this.lastRawType && this.lastRawMap) m = this.lastRawMap;
    else {
      m = this.rawNames.get(type);
      if (!m) return -1;
      this.lastRawType = type;
      this.lastRawMap = m;
    }
    return m.get(raw);
  }

  private rememberRaw(type: string, raw: string, e: number): void {
    let m = this.rawNames.get(type);
    if (!m) this.rawNames.set(type, (m = new StringTable()));
    if (m.size < 4_000_000) m.set(raw, e * 2 + (raw === this.entityName[e] ? 0 : 1));
  }

  /** Synonyms changed (a vocabulary was registered): raw spellings may now mean other entities. */
  forgetRawNames(): void {
    this.rawNames.clear();
    this.lastRawMap = undefined;
    this.lastRawType = '';
  }

  private duplicateInFact(f: number, src: number): number {
    for (let c = this.factFirst[f]!; c >= 0; c = this.claimNextInFact[c]!) {
      if (this.claimSource[c] === src && this.claimStatus[c] !== RETRACTED) return c;
    }
    return -1;
  }

  claimsOfFact(f: number): number[] {
    const out: number[] = [];
    for (let c = this.factFirst[f]!; c >= 0; c = this.claimNextInFact[c]!) out.push(c);
    return out;
  }

  claimsOfSource(src: number): number[] {
    if (!this.sourceListsBuilt) this.buildSourceLists();
    const out: number[] = [];
    for (let c = this.sourceFirst[src]!; c >= 0; c = this.claimNextInSource[c]!) out.push(c);
    return out;
  }

  private buildSourceLists(): void {
    const n = this.claimCount;
    this.col_sourceFirst.reserve(this.sourceIds.length);
    this.col_sourceLast.reserve(this.sourceIds.length);
    this.col_sourceFirst.n = this.col_sourceLast.n = this.sourceIds.length;
    const first = this.sourceFirst;
    const last = this.sourceLast;
    const next = this.claimNextInSource;
    const source = this.claimSource;
    for (let c = 0; c < n; c++) {
      const src = source[c]!;
      if (first[src] === -1) first[src] = c;
      else next[last[src]!] = c;
      last[src] = c;
    }
    this.sourceListsBuilt = true;
  }

  factTextOf(f: number): string {
    return factText(this.entityIds[this.factS[f]!]!, this.predName[this.factP[f]!]!, this.entityIds[this.factO[f]!]!);
  }

  contentIdOfFact(f: number): string {
    let cid = this.factContent.get(f);
    if (cid === undefined) {
      cid = contentIdOf(this.factTextOf(f));
      this.factContent.set(f, cid);
    }
    return cid;
  }

  factByContentId(contentId: string): number | undefined {
    if (!this.contentIndex) {
      const index = new Map<string, number>();
      for (let f = 0; f < this.factCount; f++) index.set(this.contentIdOfFact(f), f);
      this.contentIndex = index;
    }
    return this.contentIndex.get(contentId);
  }

  /** The claim as it was written (raw spellings, provenance, payload). */
  claimEntryOf(c: number): ClaimEntry {
    const f = this.claimFact[c]!;
    const raw = this.claimRaw.get(c);
    const s = this.factS[f]!;
    const o = this.factO[f]!;
    const p = this.factP[f]!;
    const prov = this.claimProvenance.get(c) ?? {
      source_type: raw ? raw.source_type : this.sourceTypeName[this.claimSourceType[c]!]!,
      source_id: this.sourceIds[this.claimSource[c]!]!,
    };
    const e: ClaimEntry = {
      kind: 'claim',
      claim_id: this.claimIdOf(c),
      subject: raw ? raw.subject : [this.entityName[s]!, this.entityType[s]!],
      predicate: raw ? raw.predicate : [this.predName[p]!, this.predClass[p]!],
      object: raw ? raw.object : [this.entityName[o]!, this.entityType[o]!],
      provenance: prov,
      confidence: this.claimConf[c]!,
    };
    if (this.claimPayload.has(c)) e.payload = this.claimPayload.get(c);
    return e;
  }

  /** Entity index for a normalised (type, canonical name), or undefined. */
  entityOf(type: string, norm: string): number | undefined {
    let m: Map<string, number> | undefined;
    if (type === this.lastType && this.lastTypeMap) m = this.lastTypeMap;
    else {
      m = this.entityByType.get(type);
      if (m) {
        this.lastType = type;
        this.lastTypeMap = m;
      }
    }
    return m?.get(norm);
  }

  private sourceOf(sourceId: string): number | undefined {
    if (sourceId === this.lastSourceId && this.lastSource >= 0) return this.lastSource;
    const src = this.sourceTable.get(sourceId);
    if (src < 0) return undefined;
    this.lastSourceId = sourceId;
    this.lastSource = src;
    return src;
  }

  /** `known`: the entity (type, norm) names, or -1 when it is certainly not indexed yet. */
  private internEntity(type: string, norm: string, raw: string, known: number): number {
    let e = known;
    if (e >= 0) {
      this.rememberRaw(type, raw, e);
      if (raw !== this.entityName[e]) {
        const shown = raw.trim();
        if (shown !== this.entityName[e]) {
          let set = this.entityAliases.get(e);
          if (!set) this.entityAliases.set(e, (set = new Set()));
          if (set.size < 32) set.add(shown);
        }
      }
      return e;
    }
    if (this.entityIds.length >= ENTITY_KEY_LIMIT) throw new Error(`more than ${ENTITY_KEY_LIMIT} entities: beyond the in-memory index's design`);
    e = this.entityIds.length;
    const id = entityId(type, norm);
    this.entityIndex.set(id, e);
    let byType = this.entityByType.get(type);
    if (!byType) this.entityByType.set(type, (byType = new Map()));
    byType.set(norm, e);
    this.entityIds.push(id);
    this.entityType.push(type);
    this.entityNorm.push(norm);
    const shown = raw.trim();
    const display = this.registry.displayName(type, norm);
    this.entityName.push(display ?? shown);
    this.rememberRaw(type, raw, e);
    if (display !== undefined && display !== shown) this.entityAliases.set(e, new Set([shown]));
    this.col_entityFirstFact.push(-1);
    this.col_entityLastSlot.push(-1);
    this.col_entityActive.push(0);
    const byName = this.nameIndex.get(norm);
    if (byName) byName.push(e);
    else this.nameIndex.set(norm, [e]);
    return e;
  }

  // ---- applying log entries -------------------------------------------------------------------------

  /**
   * Adds a claim entry, or finds that it duplicates a stored one: see addClaim. `idPrefix`/`idCounter`: set
   * for an id the engine generated (see ClaimIds), so it is kept as two numbers without parsing it back; -1
   * parses `claim_id`.
   */
  applyClaim(e: ClaimEntry, ts: number, events: PendingEvent[] | null, idPrefix = '', idCounter = -1): number {
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
    return this.addClaim(a);
  }

  /**
   * Applies the claims of a run in order, writing what addClaim returned for claim i to out[i]. `compact`: the
   * run is a write not yet in the log, whose kept claims get consecutive ids from id_start (a duplicate takes
   * no id); otherwise claim i has id id_start + i, as stored. Returns how many claims were added.
   */
  applyRun(r: ClaimRun, ts: number, events: PendingEvent[] | null, out: Int32Array | null, compact: boolean): number {
    const extras = r.provenance_extra;
    const payloads = r.payload;
    const a = this.fields;
    a.idPrefix = r.id_prefix;
    a.claimId = '';
    a.ts = ts;
    a.events = events;
    let added = 0;
    for (let i = 0; i < r.n; i++) {
      const extra = extras?.[i];
      a.subjectName = r.subject[i]!;
      a.subjectType = r.subject_type[i]!;
      a.relationship = r.relationship[i]!;
      a.predicateClass = r.predicate_class[i]!;
      a.objectName = r.object[i]!;
      a.objectType = r.object_type[i]!;
      a.sourceType = r.source_type[i]!;
      a.sourceId = r.source_id[i]!;
      a.confidence = r.confidence[i]!;
      a.provenance = extra ? provenanceOfRun(r, i) : null;
      a.payload = payloads?.[i];
      a.idCounter = r.id_start + (compact ? added : i);
      const c = this.addClaim(a);
      if (out) out[i] = c;
      if (c >= 0) added++;
    }
    return added;
  }

  /**
   * Adds a claim, or finds that it duplicates a stored one: the same fact from the same source, not retracted.
   * Returns the new claim's index, or `-2 - d` where d is the duplicated claim's index (then nothing changes).
   * Ingest and replay both come here, so a base reopened from its log holds exactly what was ingested; a
   * duplicate can reach the log only when two processes raced, and the first in log order wins.
   */
  private addClaim(a: ClaimFields): number {
    // Read once into locals: the body below is the tuned apply, written against them.
    const subjectName = a.subjectName;
    const subjectTypeRaw = a.subjectType;
    const relationship = a.relationship;
    const predicateClass = a.predicateClass;
    const objectName = a.objectName;
    const objectTypeRaw = a.objectType;
    const sourceType = a.sourceType;
    const sourceId = a.sourceId;
    const confidence = a.confidence;
    const provenance = a.provenance;
    const payload = a.payload;
    const idPrefix = a.idPrefix;
    const idCounter = a.idCounter;
    const claimId = a.claimId;
    const ts = a.ts;
    const events = a.events;
    // Every applied entry moves the clock, a duplicate too, so the next write's timestamp never goes back.
    if (ts > this.lastTs) this.lastTs = ts;
    const subjectType = normalizeToken(subjectTypeRaw);
    const objectType = normalizeToken(objectTypeRaw);
    const predicate = normalizeToken(relationship);
    // Known spellings of known entities: one lookup instead of normalising, then finding the entity.
    const sCode = this.rawEntity(subjectType, subjectName);
    const oCode = this.rawEntity(objectType, objectName);
    const sNorm = sCode >= 0 ? '' : this.registry.canonicalName(subjectType, normalizeName(subjectName));
    const oNorm = oCode >= 0 ? '' : this.registry.canonicalName(objectType, normalizeName(objectName));
    let s = sCode >= 0 ? sCode >> 1 : this.entityOf(subjectType, sNorm) ?? -1;
    let o = oCode >= 0 ? oCode >> 1 : this.entityOf(objectType, oNorm) ?? -1;
    let p = this.predIndex.get(predicate) ?? -1;
    let src = this.sourceOf(sourceId) ?? -1;
    let f = s >= 0 && o >= 0 && p >= 0 ? this.facts.get(s, p, o) ?? -1 : -1;
    if (f >= 0 && src >= 0) {
      const dup = this.duplicateInFact(f, src);
      if (dup >= 0) return -2 - dup;
    }

    // A new spelling of a known entity is remembered (and kept as an alias) as well.
    if (sCode < 0) s = this.internEntity(subjectType, sNorm, subjectName, s);
    // (A new object may be the subject just added: a self-loop.)
    if (oCode < 0) o = this.internEntity(objectType, oNorm, objectName, o >= 0 ? o : this.entityOf(objectType, oNorm) ?? -1);
    if (p < 0) {
      p = this.predName.length;
      this.predIndex.set(predicate, p);
      this.predName.push(predicate);
      this.predClass.push(normalizeToken(predicateClass));
    }
    // Bit 1: the subject's raw name is its entity's display name; bit 2: the same for the object.
    const sameName = (sCode >= 0 && (sCode & 1) === 0 ? 1 : 0) | (oCode >= 0 && (oCode & 1) === 0 ? 2 : 0);
    const c = this.ids.count;
    if (c >= this.col_claimFact.a.length) this.reserveClaims(c + 1);
    let newSource = true;
    if (f < 0) {
      f = this.col_factS.n;
      if (f >= FACT_LIMIT) throw new Error(`more than ${FACT_LIMIT} facts: beyond the in-memory index's design`);
      if (f >= this.col_factS.a.length) this.reserveFacts(f + 1);
      // Reserved columns: factSources starts at 0, the list links at -1 (see columns.ts).
      this.col_factS.a[f] = s;
      this.col_factO.a[f] = o;
      this.col_factP.a[f] = p;
      this.col_factS.n = f + 1;
      this.facts.add(f);
      this.col_factFirst.a[f] = c;
      this.col_factLast.a[f] = c;
      this.col_factClaimCount.a[f] = 1;
      this.linkFact(s, f, 0);
      if (o !== s) this.linkFact(o, f, 1);
      else this.selfLoops++;
      if (this.contentIndex) this.contentIndex.set(this.contentIdOfFact(f), f);
    } else {
      for (let other = this.factFirst[f]!; other >= 0; other = this.claimNextInFact[other]!) {
        if (this.claimSource[other] === src && this.claimStatus[other] === ACTIVE) newSource = false;
      }
      this.claimNextInFact[this.factLast[f]!] = c;
      this.factLast[f] = c;
      this.factClaimCount[f]!++;
    }
    if (src < 0) {
      src = this.sourceIds.length;
      this.sourceIndex.set(sourceId, src);
      this.sourceTable.set(sourceId, src);
      this.sourceIds.push(sourceId);
      if (this.sourceListsBuilt) {
        this.col_sourceFirst.push(c);
        this.col_sourceLast.push(c);
      }
    } else if (this.sourceListsBuilt) {
      this.claimNextInSource[this.sourceLast[src]!] = c;
      this.sourceLast[src] = c;
    }
    let st = this.sourceTypeIndex.get(sourceType);
    if (st === undefined) {
      // Index both the raw and the normalised spelling; the normalised one names the type.
      const norm = normalizeToken(sourceType);
      st = this.sourceTypeIndex.get(norm);
      if (st === undefined) {
        st = this.sourceTypeName.length;
        this.sourceTypeName.push(norm);
        this.sourceTypeIndex.set(norm, st);
      }
      this.sourceTypeIndex.set(sourceType, st);
    }

    if (idCounter >= 0) this.ids.pushGenerated(idPrefix, idCounter);
    else this.ids.push(claimId);
    this.claimIndexMap?.set(idCounter >= 0 ? this.ids.get(c) : claimId, c);
    // Reserved columns: the status starts ACTIVE (0), the times at Infinity, the list links at -1.
    this.col_claimFact.a[c] = f;
    this.col_claimSource.a[c] = src;
    this.col_claimSourceType.a[c] = st;
    this.col_claimConf.a[c] = confidence;
    this.col_claimTs.a[c] = ts;
    // Keep the raw spellings only when they differ from what the index can rebuild. Entity s has type
    // subjectType and predicate p is named `predicate` (they were looked up by those), so those are compared
    // without loading the entity's or predicate's entry.
    if (
      ((sameName & 1) === 0 && subjectName !== this.entityName[s]) || subjectTypeRaw !== subjectType ||
      ((sameName & 2) === 0 && objectName !== this.entityName[o]) || objectTypeRaw !== objectType ||
      relationship !== predicate || predicateClass !== this.predClass[p] || sourceType !== this.sourceTypeName[st]
    ) {
      this.claimRaw.set(c, {
        subject: [subjectName, subjectTypeRaw], predicate: [relationship, predicateClass], object: [objectName, objectTypeRaw], source_type: sourceType,
      });
    }
    if (provenance) this.claimProvenance.set(c, provenance);
    if (payload !== undefined) this.claimPayload.set(c, payload);
    const derived = provenance?.derived_from;
    if (derived) {
      for (const id of derived) {
        const parent = this.claimIndexOf(id);
        if (parent === undefined) continue;
        const list = this.dependents.get(parent);
        if (list) list.push(c);
        else this.dependents.set(parent, [c]);
      }
    }

    // A new source for the fact corroborates it; the same source again cannot reach here (duplicate).
    this.activeClaims++;
    this.entityActive[s]!++;
    if (o !== s) this.entityActive[o]!++;
    if (newSource) this.factSources[f]!++;
    if (events) {
      if (this.emitIngested) events.push({ name: 'claim_ingested', claim: c });
      if (newSource && this.emitCorroborated && this.factSources[f]! >= 2) events.push({ name: 'claim_corroborated', fact: f, count: this.factSources[f]!, claim: c });
    }
    const indexes = this.derived;
    for (let i = 0; i < indexes.length; i++) {
      const d = indexes[i]!;
      if (d.wantsClaims) d.onClaim(c, ts, events);
    }
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
    const seen = new Set<number>();
    for (let c = this.factFirst[f]!; c >= 0; c = this.claimNextInFact[c]!) if (this.claimStatus[c] === ACTIVE) seen.add(this.claimSource[c]!);
    return seen.size;
  }

  /** Retracts every non-retracted claim of the source; with cascade, degrades their dependants transitively. */
  applyRetract(e: RetractEntry, ts: number, events: PendingEvent[] | null): { retracted: number[]; degraded: number[] } {
    if (ts > this.lastTs) this.lastTs = ts;
    const src = this.sourceIndex.get(e.source_id);
    const retracted: number[] = [];
    const degraded: number[] = [];
    if (src !== undefined) {
      for (const c of this.claimsOfSource(src)) {
        if (this.claimStatus[c] !== RETRACTED) {
          this.setInactive(c, RETRACTED, ts);
          retracted.push(c);
        }
      }
      if (e.cascade) {
        const queue = [...retracted];
        const seen = new Set<number>(queue);
        for (let qi = 0; qi < queue.length; qi++) {
          for (const d of this.dependents.get(queue[qi]!) ?? []) {
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

}
