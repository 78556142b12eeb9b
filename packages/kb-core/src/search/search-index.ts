// The search stage's derived index (see graph/derived.ts): fed by the apply with every claim, it keeps BM25
// over fact texts and over entity names, and queues each new fact and its new entities for vectors (computed
// in the background: embeddings/queue.ts). The apply only queues the claim (intake.ts); the claim enters BM25
// after the commit, and every read drains what is left first (`ready`). One document per fact: a fact's
// claims share its text, and a claim's own payload joins the fact's document.
import type { DerivedIndex, DerivedIndexFactory } from '../graph/derived.js';
import type { ReadSnapshot } from '../graph/snapshot.js';
import type { LogEntry } from '../model/entries.js';
import { EmbeddingQueue } from '../embeddings/queue.js';
import type { EmbeddingPort } from '../embeddings/port.js';
import type { SharedVectors } from '../store/shared-vectors.js';
import { Bm25, type Bm25State } from './bm25.js';
import { SearchIntake } from './intake.js';
import { entityText, factText, renderPayload } from './text.js';
import { tokenize } from '../model/tokenize.js';

export const SEARCH_INDEX = 'search';

/** How a base embeds: off, the local embedder, or a provider's port. */
export type EmbeddingChoice = { port?: EmbeddingPort; dim?: number; shared?: SharedVectors } | false;

export class SearchIndex implements DerivedIndex {
  readonly name = SEARCH_INDEX;
  readonly wantsClaims = true;
  readonly facts = new Bm25();
  readonly entities = new Bm25();
  /** Null when embedding is off: search is lexical only. */
  readonly embeddings: EmbeddingQueue | null;
  /** Claims applied but not in BM25 yet. */
  readonly intake = new SearchIntake((c) => this.index(c));
  /** Facts and entities handed to BM25 and the embedding queue so far (dense from 0). */
  factsSeen = 0;
  entitiesSeen = 0;
  /** Claims taken in (from the intake) so far, and the last one's number (search/persist.ts checks it). */
  taken = 0;
  lastTaken = -1;

  constructor(
    private readonly s: ReadSnapshot,
    choice: EmbeddingChoice,
  ) {
    this.embeddings =
      choice === false
        ? null
        : new EmbeddingQueue(
            (f) => factText(s, f),
            (e) => entityText(s, e),
            (f) => tokenize(factText(s, f)),
            choice.port,
            choice.dim,
            () => this.entitiesSeen,
            choice.shared,
            () => this.intake.count,
          );
  }

  onClaim(c: number): void {
    this.intake.push(c);
  }

  /** Resolves once every claim applied so far is in BM25 (and its fact queued for a vector). */
  ready(): Promise<void> {
    return this.intake.count === 0 ? Promise.resolve() : this.intake.drain();
  }

  /** Facts and entities not taken in yet that will need a vector (those loaded at open have one). */
  untakenWithoutVector(): number {
    const q = this.embeddings;
    if (q === null || this.intake.count === 0) return 0;
    let n = 0;
    for (let f = this.factsSeen; f < this.s.factCount; f++) if (!q.facts.vectors.has(f)) n++;
    for (let e = this.entitiesSeen; e < this.s.entityIds.length; e++) if (!q.entities.vectors.has(e)) n++;
    return n;
  }

  /** A what-if view's graph: no background work until a read asks (it may never be searched); see markHypothetical. */
  markHypothetical(): void {
    this.intake.defer();
    this.embeddings?.markHypothetical();
  }

  close(): void {
    this.intake.close();
    this.embeddings?.close();
  }

  /** After close() and the last save: frees the vectors' native memory now (see VectorSet.release). */
  releaseVectors(): void {
    this.embeddings?.facts.release();
    this.embeddings?.entities.release();
  }

  /** Claim c into BM25, its fact (when new) and the entities added since into the embedding queue. */
  private index(c: number): void {
    this.taken++;
    this.lastTaken = c;
    const s = this.s;
    const f = s.claimFact[c]!;
    const payload = s.claimPayloadOf(c);
    if (f < this.factsSeen) {
      // Another source states a known fact: only its payload can add words.
      if (payload !== undefined) this.facts.add(f, tokenize(renderPayload(payload)));
      return;
    }
    this.factsSeen = f + 1;
    const text = payload === undefined ? factText(s, f) : `${factText(s, f)} ${renderPayload(payload)}`;
    const tokens = tokenize(text);
    this.facts.add(f, tokens);
    const q = this.embeddings;
    q?.addFact(f);
    const n = s.entityIds.length;
    for (let e = this.entitiesSeen; e < n; e++) {
      this.entities.add(e, tokenize(entityText(s, e)));
      q?.addEntity(e);
    }
    this.entitiesSeen = n;
  }

  /**
   * Takes a BM25 state restored from disk (search/persist.ts) in place of the first `taken` claims of the log:
   * those leave the intake untaken, and the facts and entities they brought go to the embedding queue as if
   * taken (those with a vector loaded at open are skipped there). The caller checked that the state is this log's.
   */
  restore(
    facts: Bm25State,
    entities: Bm25State,
    taken: number,
    lastTaken: number,
    factsSeen: number,
    entitiesSeen: number,
  ): void {
    this.intake.skip(taken - this.taken);
    this.facts.importState(facts);
    this.entities.importState(entities);
    const q = this.embeddings;
    for (let f = this.factsSeen; f < factsSeen; f++) q?.addFact(f);
    for (let e = this.entitiesSeen; e < entitiesSeen; e++) q?.addEntity(e);
    this.taken = taken;
    this.lastTaken = lastTaken;
    this.factsSeen = factsSeen;
    this.entitiesSeen = entitiesSeen;
  }

  onEntry(_e: LogEntry): void {}
}

export function searchIndexFactory(choice: EmbeddingChoice): DerivedIndexFactory<ReadSnapshot> {
  return (g) => new SearchIndex(g, choice);
}
