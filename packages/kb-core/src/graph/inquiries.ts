// Open questions and the claims that answer them. An inquiry names a subject and an object (each maybe with a
// type) and maybe a predicate hint; the first claim linking the two, in either direction, of those types and
// fitting the hint, matches it.
// It is a derived index (see derived.ts): the graph's apply offers it each claim while any inquiry is open.
import type { InquiryEntry, LogEntry } from '../model/entries.js';
import { normalizeName, normalizeToken } from '../model/normalize.js';
import type { Registry } from '../model/registry.js';
import type { DerivedIndex } from './derived.js';
import type { PendingEvent } from './events.js';

// Deliberate likeness: a list of readonly columns, as GraphSnapshot (snapshot.ts) declares its own; this is the
// narrow view the book needs, so that the derived index does not depend on the whole snapshot.
/** What the book reads of the graph to match a claim: its fact's names, by index. */
export interface InquiryGraph {
  readonly claimFact: Int32Array;
  readonly factS: Int32Array;
  readonly factO: Int32Array;
  readonly factP: Int32Array;
  readonly entityNorm: readonly string[];
  readonly entityType: readonly string[];
  readonly predName: readonly string[];
}

/**
 * Whether an entity of type `have` answers for an inquiry's side of type `want` ('' for any type): the same
 * type, or one unified with it (a protein inquiry is answered by the entity first stated as the gene).
 */
export function typeFits(registry: Registry, want: string, have: string): boolean {
  return want === '' || registry.sameEntityType(want, have);
}

export interface InquiryState {
  entry: InquiryEntry;
  /** Canonical names the subject / object may stand for (synonyms followed). */
  subjectNorms: string[];
  objectNorms: string[];
  /** Normalised types the subject / object must have, '' for any. */
  subjectType: string;
  objectType: string;
  hint: string;
  createdTs: number;
  matchedTs: number;
  answers: number[];
}

export class InquiryBook implements DerivedIndex {
  readonly name = 'inquiries';
  readonly list: InquiryState[] = [];
  readonly index = new Map<string, number>();
  /** Normalised name -> open inquiries mentioning it as subject or object. */
  private readonly openByName = new Map<string, Set<number>>();

  constructor(
    private readonly registry: Registry,
    private readonly graph: InquiryGraph,
  ) {}

  get anyOpen(): boolean {
    return this.openByName.size > 0;
  }

  get wantsClaims(): boolean {
    return this.openByName.size > 0;
  }

  onClaim(c: number, ts: number, events: PendingEvent[] | null): void {
    const g = this.graph;
    const f = g.claimFact[c]!;
    const s = g.factS[f]!;
    const o = g.factO[f]!;
    this.match(
      c,
      g.entityNorm[s]!,
      g.entityNorm[o]!,
      g.predName[g.factP[f]!]!,
      ts,
      events,
      g.entityType[s]!,
      g.entityType[o]!,
    );
  }

  onEntry(e: LogEntry, ts: number): void {
    if (e.kind === 'inquiry') this.add(e, ts);
  }

  /** Takes the inquiries of a graph loaded from a snapshot (graph-image.ts); those not matched are open. */
  restore(list: readonly InquiryState[]): void {
    for (const q of list) {
      const i = this.list.length;
      this.list.push(q);
      this.index.set(q.entry.inquiry_id, i);
      if (q.matchedTs === Infinity) this.markOpen(i, q);
    }
  }

  private markOpen(i: number, q: InquiryState): void {
    for (const n of [...q.subjectNorms, ...q.objectNorms]) {
      let set = this.openByName.get(n);
      if (!set) {
        set = new Set();
        this.openByName.set(n, set);
      }
      set.add(i);
    }
  }

  add(e: InquiryEntry, ts: number): number {
    const i = this.list.length;
    const q: InquiryState = {
      entry: e,
      subjectNorms: this.registry.canonicalCandidates(normalizeName(e.subject)),
      objectNorms: this.registry.canonicalCandidates(normalizeName(e.object)),
      subjectType: e.subject_type === undefined ? '' : normalizeToken(e.subject_type),
      objectType: e.object_type === undefined ? '' : normalizeToken(e.object_type),
      hint: e.predicate_hint.trim() === '' ? '' : normalizeToken(e.predicate_hint),
      createdTs: ts,
      matchedTs: Infinity,
      answers: [],
    };
    this.list.push(q);
    this.index.set(e.inquiry_id, i);
    this.markOpen(i, q);
    return i;
  }

  /**
   * Whether a claim between entities named a and b (either direction), of types aType and bType, with this
   * predicate answers inquiry i.
   */
  fits(i: number, a: string, b: string, predicate: string, aType: string, bType: string): boolean {
    const q = this.list[i]!;
    const forward =
      q.subjectNorms.includes(a) &&
      q.objectNorms.includes(b) &&
      typeFits(this.registry, q.subjectType, aType) &&
      typeFits(this.registry, q.objectType, bType);
    const backward =
      q.subjectNorms.includes(b) &&
      q.objectNorms.includes(a) &&
      typeFits(this.registry, q.subjectType, bType) &&
      typeFits(this.registry, q.objectType, aType);
    if (!forward && !backward) return false;
    return q.hint === '' || predicate === q.hint || predicate.includes(q.hint) || q.hint.includes(predicate);
  }

  /** Marks every open inquiry that claim c answers as matched. */
  match(
    c: number,
    subjectNorm: string,
    objectNorm: string,
    predicate: string,
    ts: number,
    events: PendingEvent[] | null,
    subjectType: string,
    objectType: string,
  ): void {
    const candidates = this.openByName.get(subjectNorm);
    if (!candidates) return;
    for (const i of [...candidates]) {
      if (!this.fits(i, subjectNorm, objectNorm, predicate, subjectType, objectType)) continue;
      const q = this.list[i]!;
      q.matchedTs = ts;
      q.answers.push(c);
      for (const n of [...q.subjectNorms, ...q.objectNorms]) {
        const set = this.openByName.get(n);
        set?.delete(i);
        if (set?.size === 0) this.openByName.delete(n);
      }
      events?.push({ name: 'inquiry_matched', inquiry_id: q.entry.inquiry_id, claim: c });
    }
  }
}
