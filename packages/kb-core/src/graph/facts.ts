// Facts (corroboration groups): one per distinct (subject, predicate, object), in typed columns, found through
// FactTable. Each fact heads the list of its claims (threaded through the claim columns) and sits on its
// subject's and its object's fact lists, threaded through nextS / nextO here when first read (listsReady).
import { hash } from 'node:crypto';
import { KbCapacityError } from '../errors.js';
import { I32Column } from './columns.js';
import type { Entities } from './entities.js';
import { FactTable } from './fact-table.js';

// Fact indices are doubled in entity list slots (see link), which must stay int32.
const FACT_LIMIT = 2 ** 30 - 1;

/** The canonical text of a fact: subject id, predicate, object id. Same fact, same text, whatever the source. */
export function factText(subjectId: string, predicate: string, objectId: string): string {
  return `${subjectId}\u0001${predicate}\u0001${objectId}`;
}

/** content_id: the first 128 bits of SHA-256 over the fact's canonical text, hex. */
export function contentIdOf(text: string): string {
  return hash('sha256', text, 'hex').slice(0, 32);
}

export class Facts {
  readonly S = new I32Column();
  readonly O = new I32Column();
  readonly P = new I32Column();
  readonly table = new FactTable(this.S, this.P, this.O);
  /** First and last claim of the fact; claims chain through the claims' nextInFact (-1 ends). */
  readonly first = new I32Column();
  readonly last = new I32Column();
  readonly claimCount = new I32Column();
  /** Distinct sources among the fact's active claims. */
  readonly sources = new I32Column();
  // Facts in which an entity is subject or object, in the order they were added: a list threaded through the
  // fact columns (nextS continues the subject's list, nextO the object's; a self-loop is on the subject's
  // only), walked with firstFact/nextFact. Typed columns instead of an array per entity: adding a fact touches
  // two ints instead of growing two heap arrays, and leaves the collector nothing to trace.
  // The facts are put on the lists when a read first asks (listsReady), in fact order, so the lists are the
  // same as if each fact had been put on them when added: an ingest then neither grows these two columns nor
  // touches the entities' list ends, two cache misses per new fact that a base being fed may never read.
  readonly nextS = new I32Column(-1);
  readonly nextO = new I32Column(-1);
  /** Facts 0..linked-1 are on their entities' lists. */
  linked = 0;
  /** content_id per fact, computed when first needed (hashing is the costliest step of an ingest). */
  private readonly content = new Map<number, string>();
  private contentIndex: Map<string, number> | undefined;

  constructor(
    private readonly entities: Entities,
    private readonly predName: readonly string[],
  ) {}

  get count(): number {
    return this.S.n;
  }

  /** The entity's first fact, or -1. */
  firstFact(e: number): number {
    if (this.linked !== this.S.n) this.listsReady();
    return this.entities.firstFact.a[e]!;
  }

  /** The entities' first facts, with every fact on the lists. */
  get listHeads(): Int32Array {
    this.listsReady();
    return this.entities.firstFact.a;
  }
  /** nextS and nextO with every fact on the lists. */
  get listNextS(): Int32Array {
    this.listsReady();
    return this.nextS.a;
  }
  get listNextO(): Int32Array {
    this.listsReady();
    return this.nextO.a;
  }

  /** Puts the facts added since the last call on their entities' lists (a read of the lists calls it first). */
  listsReady(): void {
    const n = this.S.n;
    if (this.linked === n) return;
    this.nextS.reserve(n);
    this.nextO.reserve(n);
    const S = this.S.a;
    const O = this.O.a;
    for (let f = this.linked; f < n; f++) {
      const s = S[f]!;
      const o = O[f]!;
      this.link(s, f, 0);
      if (o !== s) this.link(o, f, 1);
    }
    this.linked = n;
  }

  /** The fact after f in entity e's list (f must be on it), or -1. */
  nextFact(f: number, e: number): number {
    return this.S.a[f] === e ? this.nextS.a[f]! : this.nextO.a[f]!;
  }

  /** Room for `size` facts in every fact column (their count is S.n). */
  private reserve(size: number): void {
    const cols = [this.S, this.O, this.P, this.first, this.last, this.claimCount, this.sources];
    for (const col of cols) col.reserve(size);
  }

  private link(e: number, f: number, asObject: 0 | 1): void {
    const ent = this.entities;
    const last = ent.lastSlot.a[e]!;
    if (last < 0) ent.firstFact.a[e] = f;
    else if ((last & 1) === 0) this.nextS.a[last >> 1] = f;
    else this.nextO.a[last >> 1] = f;
    ent.lastSlot.a[e] = f * 2 + asObject;
  }

  /** A new fact (s, p, o) whose first claim is c; returns its index. Whether s is o: the caller counts it. */
  add(s: number, p: number, o: number, c: number): number {
    const f = this.S.n;
    if (f >= FACT_LIMIT) throw new KbCapacityError('facts', FACT_LIMIT);
    if (f >= this.S.limit) this.reserve(f + 1);
    // Reserved columns: sources starts at 0, the list links at -1 (see columns.ts).
    this.S.a[f] = s;
    this.O.a[f] = o;
    this.P.a[f] = p;
    this.S.n = f + 1;
    this.table.add(f);
    this.first.a[f] = c;
    this.last.a[f] = c;
    this.claimCount.a[f] = 1;
    if (this.contentIndex) this.contentIndex.set(this.contentIdOf(f), f);
    return f;
  }

  textOf(f: number): string {
    const ids = this.entities.ids;
    return factText(ids[this.S.a[f]!]!, this.predName[this.P.a[f]!]!, ids[this.O.a[f]!]!);
  }

  contentIdOf(f: number): string {
    let cid = this.content.get(f);
    if (cid === undefined) {
      cid = contentIdOf(this.textOf(f));
      this.content.set(f, cid);
    }
    return cid;
  }

  // Deliberate likeness: claim-columns.ts's indexOf builds its lazy map alike; keys and columns differ.
  byContentId(contentId: string): number | undefined {
    if (!this.contentIndex) {
      const index = new Map<string, number>();
      for (let f = 0; f < this.count; f++) index.set(this.contentIdOf(f), f);
      this.contentIndex = index;
    }
    return this.contentIndex.get(contentId);
  }
}
