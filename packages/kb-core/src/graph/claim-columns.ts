// Claims in columns (one typed array per attribute, indexed by claim number), their ids, the sparse extras
// (raw spellings, full provenance, payloads, dependants), and the sources and source types they name.
import { normalizeToken } from '../model/normalize.js';
import type { ClaimEntry } from '../model/entries.js';
import type { ClaimStatus } from '../types.js';
import { ClaimIds } from './claim-ids.js';
import { F64Column, I32Column, U8Column } from './columns.js';
import { StringTable } from './string-table.js';

export const ACTIVE = 0;
export const DEGRADED = 1;
export const RETRACTED = 2;
export const STATUS_NAMES: readonly ClaimStatus[] = ['active', 'degraded', 'retracted'];

/** Raw spellings of a claim when they differ from the canonical ones the index keeps (kept sparsely). */
export interface RawOverride {
  subject: [string, string];
  predicate: [string, string];
  object: [string, string];
  source_type: string;
}

/**
 * The sources by id, as a read-only map over the ingest's source table (string-table.ts) and the ids in order:
 * a source is interned into the table alone. A Map kept beside it cost an ingest a second hash and a Map insert
 * per new source, 13% of the apply at 100,000 claims (50,000 sources).
 */
export class SourceIdMap implements ReadonlyMap<string, number> {
  constructor(private readonly columns: ClaimColumns) {}

  get size(): number {
    return this.columns.sourceIds.length;
  }
  get(sourceId: string): number | undefined {
    return this.columns.sourceOf(sourceId);
  }
  has(sourceId: string): boolean {
    return this.columns.sourceOf(sourceId) !== undefined;
  }
  forEach(fn: (src: number, sourceId: string, map: ReadonlyMap<string, number>) => void, thisArg?: unknown): void {
    const ids = this.columns.sourceIds;
    for (let src = 0; src < ids.length; src++) fn.call(thisArg, src, ids[src]!, this);
  }
  *entries(): MapIterator<[string, number]> {
    const ids = this.columns.sourceIds;
    for (let src = 0; src < ids.length; src++) yield [ids[src]!, src];
  }
  *keys(): MapIterator<string> {
    const ids = this.columns.sourceIds;
    for (let src = 0; src < ids.length; src++) yield ids[src]!;
  }
  *values(): MapIterator<number> {
    const n = this.columns.sourceIds.length;
    for (let src = 0; src < n; src++) yield src;
  }
  [Symbol.iterator](): MapIterator<[string, number]> {
    return this.entries();
  }
}

export class ClaimColumns {
  readonly ids = new ClaimIds();
  readonly fact = new I32Column();
  readonly source = new I32Column();
  readonly sourceType = new I32Column();
  readonly conf = new F64Column();
  readonly ts = new F64Column();
  /** Reserved at ACTIVE (0); the times at Infinity; the list links at -1 (see columns.ts). */
  readonly status = new U8Column();
  // The times and the source links are not reserved with the other columns: a claim gets them only when retracted
  // or degraded (then timesReady() makes the times as long as the claims) or when the source lists are built.
  // Until then an ingest neither fills nor copies them, 20 of a claim's 53 column bytes, whose fresh pages cost
  // more than the rest of a claim's growth on a loaded machine.
  readonly retractTs = new F64Column(Infinity);
  readonly degradeTs = new F64Column(Infinity);
  readonly nextInFact = new I32Column(-1);
  readonly nextInSource = new I32Column(-1);
  readonly raw = new Map<number, RawOverride>();
  readonly provenance = new Map<number, ClaimEntry['provenance']>();
  readonly payload = new Map<number, unknown>();
  /** claim -> claims whose provenance.derived_from names it. */
  readonly dependents = new Map<number, number[]>();
  /** claim_id -> claim index, built on first lookup (a string map costs more than the rest of an ingest). */
  indexMap: Map<string, number> | undefined;

  // ---- sources ----
  /** Source id -> source, read-only (interned through the source table). */
  readonly sourceIndex: ReadonlyMap<string, number> = new SourceIdMap(this);
  private readonly sourceTable = new StringTable();
  readonly sourceIds: string[] = [];
  private lastSourceId = '';
  private lastSource = -1;
  // A source's claims chain through nextInSource (-1 ends), from sourceFirst to sourceLast. Only retraction
  // walks them, so they are built on the first retraction (one scan of `source`) and kept up to date from then
  // on: until then an ingest does not touch them.
  sourceListsBuilt = false;
  readonly sourceFirst = new I32Column(-1);
  readonly sourceLast = new I32Column();
  readonly sourceTypeIndex = new Map<string, number>();
  readonly sourceTypeName: string[] = [];

  get count(): number {
    return this.ids.count;
  }

  /** Room for `size` claims in every claim column (their count is ids.count). */
  reserve(size: number): void {
    for (const col of [this.fact, this.source, this.sourceType, this.nextInFact]) col.reserve(size);
    if (this.sourceListsBuilt) this.nextInSource.reserve(size);
    this.conf.reserve(size);
    this.ts.reserve(size);
    this.status.reserve(size);
  }

  /** The times, covering every claim. */
  get retractTimes(): Float64Array {
    this.timesReady();
    return this.retractTs.a;
  }
  get degradeTimes(): Float64Array {
    this.timesReady();
    return this.degradeTs.a;
  }

  /** Makes the retraction and degradation times cover every claim (Infinity for those never retracted). */
  timesReady(): void {
    const n = this.count;
    if (this.retractTs.a.length < n) this.retractTs.reserve(n);
    if (this.degradeTs.a.length < n) this.degradeTs.reserve(n);
  }

  idOf(c: number): string {
    return this.ids.get(c);
  }

  /** The index of a claim by its id, or undefined. */
  // Deliberate likeness: facts.ts's byContentId builds its lazy map alike; keys and columns differ.
  indexOf(claimId: string): number | undefined {
    if (!this.indexMap) {
      const m = new Map<string, number>();
      for (let c = 0; c < this.count; c++) m.set(this.idOf(c), c);
      this.indexMap = m;
    }
    return this.indexMap.get(claimId);
  }

  /** `hash`: StringTable.hash(sourceId), when the caller has it. */
  sourceOf(sourceId: string, hash: number = StringTable.hash(sourceId)): number | undefined {
    if (sourceId === this.lastSourceId && this.lastSource >= 0) return this.lastSource;
    const src = this.sourceTable.getHashed(sourceId, hash);
    if (src < 0) return undefined;
    this.lastSourceId = sourceId;
    this.lastSource = src;
    return src;
  }

  /** See StringTable.peek: the source table's slot for a source id's hash. */
  peekSource(hash: number): number {
    return this.sourceTable.peek(hash);
  }

  /** Interns a new source whose first claim is c. */
  addSource(sourceId: string, c: number): number {
    const src = this.sourceIds.length;
    this.sourceTable.set(sourceId, src);
    this.sourceIds.push(sourceId);
    if (this.sourceListsBuilt) {
      this.sourceFirst.push(c);
      this.sourceLast.push(c);
    }
    return src;
  }

  /** Interns the sources of a graph loaded from a snapshot (graph-image.ts), in order, into an empty table. */
  restoreSources(ids: readonly string[]): void {
    if (this.sourceIds.length !== 0) throw new Error('sources: not empty');
    this.sourceTable.reserve(ids.length);
    for (let src = 0; src < ids.length; src++) {
      this.sourceTable.set(ids[src]!, src);
      this.sourceIds.push(ids[src]!);
    }
  }

  /** The index of a source type, interned under both the raw and the normalised spelling (which names it). */
  sourceTypeOf(sourceType: string): number {
    let st = this.sourceTypeIndex.get(sourceType);
    if (st !== undefined) return st;
    const norm = normalizeToken(sourceType);
    st = this.sourceTypeIndex.get(norm);
    if (st === undefined) {
      st = this.sourceTypeName.length;
      this.sourceTypeName.push(norm);
      this.sourceTypeIndex.set(norm, st);
    }
    this.sourceTypeIndex.set(sourceType, st);
    return st;
  }

  claimsOfSource(src: number): number[] {
    if (!this.sourceListsBuilt) this.buildSourceLists();
    const out: number[] = [];
    const next = this.nextInSource.a;
    for (let c = this.sourceFirst.a[src]!; c >= 0; c = next[c]!) out.push(c);
    return out;
  }

  private buildSourceLists(): void {
    const n = this.count;
    this.sourceFirst.reserve(this.sourceIds.length);
    this.sourceLast.reserve(this.sourceIds.length);
    this.sourceFirst.n = this.sourceLast.n = this.sourceIds.length;
    this.nextInSource.reserve(this.fact.a.length);
    const first = this.sourceFirst.a;
    const last = this.sourceLast.a;
    const next = this.nextInSource.a;
    const source = this.source.a;
    for (let c = 0; c < n; c++) {
      const src = source[c]!;
      if (first[src] === -1) first[src] = c;
      else next[last[src]!] = c;
      last[src] = c;
    }
    this.sourceListsBuilt = true;
  }
}
