// The search stage's derived index (see graph/derived.ts): fed by the apply with every new fact and entity,
// it keeps BM25 over fact texts and over entity names, teaches the local embedder each new fact's tokens, and
// queues the fact and its new entities for vectors (computed in the background: embeddings/queue.ts). One
// document per fact: a fact's claims share its text, and a claim's own payload joins the fact's document.
import type { DerivedIndex, DerivedIndexFactory } from '../graph/derived.js';
import type { ReadSnapshot } from '../graph/snapshot.js';
import type { LogEntry } from '../store/types.js';
import { EmbeddingQueue } from '../embeddings/queue.js';
import type { EmbeddingPort } from '../embeddings/port.js';
import type { SharedVectors } from '../embeddings/shared.js';
import { Bm25 } from './bm25.js';
import { entityText, factText, renderPayload } from './text.js';
import { tokenize } from './tokenize.js';

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
  private factsSeen = 0;
  private entitiesSeen = 0;

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
          );
  }

  onClaim(c: number): void {
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

  onEntry(_e: LogEntry): void {}
}

export function searchIndexFactory(choice: EmbeddingChoice): DerivedIndexFactory<ReadSnapshot> {
  return (g) => new SearchIndex(g, choice);
}
