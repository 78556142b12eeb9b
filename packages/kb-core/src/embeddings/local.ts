// The local embedder ('local', the default): offline, no model download, no key. It is built from what the
// base holds, with two published methods:
//  - Random Indexing (Kanerva, Kristofersson & Holst 2000; Sahlgren 2005): every token gets a fixed sparse
//    random "index vector"; a token's "context vector" is the sum of the index vectors of the tokens it shares
//    a fact with (subject, predicate and object names and their synonyms). Tokens used in similar facts get
//    similar context vectors: it approximates LSA's reduced co-occurrence space, incrementally (no SVD to
//    redo per ingest), so `olaparib` comes near `parp` and `breast` from the facts that link them.
//  - Feature hashing of character trigrams (Weinberger et al. 2009; the subword idea of fastText, Bojanowski
//    et al. 2017): spelling variants (`olaparb`, `tumour`/`tumor`) share most trigrams.
// A text's vector is the idf-weighted sum, over its tokens, of context vector + own index vector + trigram
// vector, L2-normalised. What it captures: co-occurrence in this base (one and two hops of the graph, so it
// is also a structural embedding of the entities), synonyms the vocabulary or the claims spell out, spelling
// variants. What it cannot: meaning that this base never states (a paraphrase whose words occur in no
// claim), word order, negation, and anything about a token seen in no fact but the query.
import { tokenize } from '../model/tokenize.js';
import { expansionOf } from './lexicon.js';
import { RowStore } from './rows.js';

export const LOCAL_DIM = 256;
/** Non-zero entries of an index vector (Sahlgren uses a handful of ±1 in a few thousand; we use 8 in 256). */
const NONZERO = 8;
/** Weight of the context vector against the token's own identity in a text vector. */
const CONTEXT_WEIGHT = 1;
const TRIGRAM_WEIGHT = 0.35;
/** Weight of the words a token implies (lexicon.ts: drug class by INN stem, plain words of medical roots). */
const EXPANSION_WEIGHT = 0.5;
/** Tokens whose part of a text vector is kept (1 KB each at 256 dimensions); past this, computed at each use. */
const CACHED_TOKENS = 131_072;

/** The tokens a token implies through the lexicon. */
function expanded(t: string): string[] {
  const e = expansionOf(t);
  return e === '' ? [] : tokenize(e);
}

/** FNV-1a, 32 bits, with a seed: deterministic across processes (the vectors are a function of the log). */
function hash(s: string, seed: number): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/**
 * Signed positions (±(position + 1)) of the index vector of each key seen: hashing once per token. Rows of one
 * store (rows.ts) rather than an Int32Array per key: tokens and trigrams make tens of thousands of keys.
 */
const positions = new RowStore(NONZERO, (n) => new Int32Array(n));
const scratch = new Int32Array(NONZERO);

function hashPositions(key: string, dim: number, p: Int32Array, at: number): void {
  for (let i = 0; i < NONZERO; i++) {
    const h = hash(key, i + 1);
    p[at + i] = h & 0x80000000 ? -((h % dim) + 1) : (h % dim) + 1;
  }
}

/** The signed positions of `key`'s index vector into `out` from `at` (cached for the default dimension). */
function indexPositions(key: string, dim: number, out: Int32Array, at: number): void {
  if (dim !== LOCAL_DIM) {
    hashPositions(key, dim, out, at);
    return;
  }
  let row = positions.rowIndex(key);
  if (row < 0) {
    // Bounded: a base with millions of distinct tokens recomputes the rarest instead of growing without end.
    if (positions.size >= 1_000_000) positions.clear();
    row = positions.ensure(key);
    hashPositions(key, dim, positions.chunk(row), positions.offset(row));
  }
  const p = positions.chunk(row);
  const o = positions.offset(row);
  for (let i = 0; i < NONZERO; i++) out[at + i] = p[o + i]!;
}

/** Adds w × the index vector of `key` to the `dim` values of v from `at`. */
function addIndexVector(v: Float32Array, at: number, dim: number, key: string, w: number): void {
  indexPositions(key, dim, scratch, 0);
  for (let i = 0; i < NONZERO; i++) {
    const x = scratch[i]!;
    if (x > 0) v[at + x - 1]! += w;
    else v[at - x - 1]! -= w;
  }
}

function normalize(v: Float32Array): Float32Array {
  let n = 0;
  for (let i = 0; i < v.length; i++) n += v[i]! * v[i]!;
  if (n > 0) {
    const inv = 1 / Math.sqrt(n);
    for (let i = 0; i < v.length; i++) v[i]! *= inv;
  }
  return v;
}

/** A learner's state: facts learnt, each token's document frequency, and the context vectors (rows). */
export interface LearnerState {
  docs: number;
  tokens: string[];
  df: Int32Array;
  /** Index into `tokens` of each context row. */
  context_rows: Int32Array;
  /** context_rows.length × dim. */
  context: Float32Array;
}

export class LocalEmbedder {
  readonly provider = 'local';
  readonly model = 'random-indexing+char-trigrams';
  constructor(
    readonly dim = LOCAL_DIM,
    /** Tokens whose part is kept (see `parts`); a test sets it low to exercise the uncached path. */
    private readonly cachedTokens = CACHED_TOKENS,
  ) {
    this.context = new RowStore(dim, (n) => new Float32Array(n));
    this.parts = new RowStore(dim, (n) => new Float32Array(n));
    this.spare = new Float32Array(dim);
    this.spareTrigrams = new Float32Array(dim);
  }
  /** token -> context vector (unnormalised sum), rows of one store (rows.ts). */
  private readonly context: RowStore<Float32Array>;
  /** token -> number of facts that held it (for idf). */
  private readonly df = new Map<string, number>();
  private docs = 0;
  /** Changes whenever what it has learnt does (a copy on another thread is current while equal: embed-helper.ts). */
  version = 0;

  /** Learns from one fact's tokens: each token's context gains the others' index vectors. */
  learn(tokens: readonly string[]): void {
    const all = [...tokens];
    for (const t of tokens) for (const x of expanded(t)) all.push(x);
    const set = [...new Set(all)];
    this.docs++;
    this.version++;
    for (const t of set) {
      this.df.set(t, (this.df.get(t) ?? 0) + 1);
      this.stale(t);
    }
    if (set.length < 2) return;
    // Each token's index vector and weight once, then every ordered pair: t's context gains u's index vector.
    const n = set.length;
    const pos = new Int32Array(n * NONZERO);
    const w = new Float64Array(n);
    for (let k = 0; k < n; k++) {
      indexPositions(set[k]!, this.dim, pos, k * NONZERO);
      w[k] = this.weight(set[k]!);
    }
    for (let a = 0; a < n; a++) {
      const row = this.context.ensure(set[a]!);
      const c = this.context.chunk(row);
      const at = this.context.offset(row);
      for (let b = 0; b < n; b++) {
        if (b === a) continue;
        const wb = w[b]!;
        for (let i = b * NONZERO; i < (b + 1) * NONZERO; i++) {
          const x = pos[i]!;
          if (x > 0) c[at + x - 1]! += wb;
          else c[at - x - 1]! -= wb;
        }
      }
    }
  }

  /** Smoothed idf of a token in the facts learnt so far. */
  weight(t: string): number {
    return Math.log(1 + (this.docs + 1) / ((this.df.get(t) ?? 0) + 0.5));
  }

  /** The vector of a text (a fact's, an entity's or a query's). */
  embedText(text: string): Float32Array {
    return this.embedTokens(tokenize(text));
  }

  embedTokens(tokens: readonly string[]): Float32Array {
    const dim = this.dim;
    const v = new Float32Array(dim);
    const weightOf = new Map<string, number>();
    for (const t of tokens) weightOf.set(t, 1);
    for (const t of tokens) for (const x of expanded(t)) if (!weightOf.has(x)) weightOf.set(x, EXPANSION_WEIGHT);
    for (const [t, scale] of weightOf) {
      const at = this.part(t);
      const p = this.partArray;
      const w = this.weightAt(t) * scale;
      for (let i = 0; i < dim; i++) v[i]! += p[at + i]! * w;
    }
    return normalize(v);
  }

  /**
   * Each token's part of a text vector, before its idf weight: its own index vector (if a fact holds it), its
   * context vector normalised, and its trigram vector normalised (weighted down beside the other two). Kept
   * while learning leaves the token alone: a catch-up embeds an entity's name once per fact that names it, and
   * recomputing the trigrams (a string and a lookup each) and the context norm every time was most of its cost.
   * learn() marks the rows of the tokens it changes stale; `fresh[row]` is 1 while a row is current.
   */
  private readonly parts: RowStore<Float32Array>;
  private fresh = new Uint8Array(1024);
  /** Each part row's idf weight and the facts learnt when it was computed (any learning changes every idf). */
  private weights = new Float64Array(1024);
  private weightDocs = new Int32Array(1024).fill(-1);
  /** The array holding the part that part() returned the offset of. */
  private partArray: Float32Array = new Float32Array(0);
  /** A token's part when the cache is full. */
  private readonly spare: Float32Array;

  /** Offset in this.partArray of token t's part (see `parts`), computed if not current. */
  private part(t: string): number {
    let row = this.parts.rowIndex(t);
    if (row < 0 && this.parts.size < this.cachedTokens) row = this.newPartRow(t);
    if (row < 0) {
      this.spare.fill(0);
      this.computePart(t, this.spare, 0);
      this.partArray = this.spare;
      return 0;
    }
    const c = this.parts.chunk(row);
    const at = this.parts.offset(row);
    if (this.fresh[row] !== 1) {
      c.fill(0, at, at + this.dim);
      this.computePart(t, c, at);
      this.fresh[row] = 1;
    }
    this.partArray = c;
    return at;
  }

  private newPartRow(t: string): number {
    const row = this.parts.ensure(t);
    if (row >= this.fresh.length) {
      const n = this.fresh.length * 2;
      const fresh = new Uint8Array(n);
      fresh.set(this.fresh);
      this.fresh = fresh;
      const weights = new Float64Array(n);
      weights.set(this.weights);
      this.weights = weights;
      const docs = new Int32Array(n).fill(-1);
      docs.set(this.weightDocs);
      this.weightDocs = docs;
    }
    return row;
  }

  /** weight(t), kept per part row until the next fact is learnt. */
  private weightAt(t: string): number {
    const row = this.parts.rowIndex(t);
    if (row < 0) return this.weight(t);
    if (this.weightDocs[row] !== this.docs) {
      this.weights[row] = this.weight(t);
      this.weightDocs[row] = this.docs;
    }
    return this.weights[row]!;
  }

  /** Adds token t's part to out[at, at + dim). */
  private computePart(t: string, out: Float32Array, at: number): void {
    const dim = this.dim;
    // A token no fact holds can only match through its spelling: its own random vector would be pure noise.
    const seen = this.df.has(t);
    if (seen) addIndexVector(out, at, dim, t, 1);
    const row = this.context.rowIndex(t);
    if (row >= 0) {
      const c = this.context.chunk(row);
      const from = this.context.offset(row);
      let n = 0;
      for (let i = from; i < from + dim; i++) n += c[i]! * c[i]!;
      if (n > 0) {
        const k = CONTEXT_WEIGHT / Math.sqrt(n);
        for (let i = 0; i < dim; i++) out[at + i]! += c[from + i]! * k;
      }
    }
    if (t.length >= 4) {
      const tmp = this.spareTrigrams;
      tmp.fill(0);
      const padded = `<${t}>`;
      for (let i = 0; i + 3 <= padded.length; i++) addIndexVector(tmp, 0, dim, `#${padded.slice(i, i + 3)}`, 1);
      normalize(tmp);
      const k = seen ? TRIGRAM_WEIGHT : 1;
      for (let i = 0; i < dim; i++) out[at + i]! += tmp[i]! * k;
    }
  }

  private readonly spareTrigrams: Float32Array;

  /** Marks token t's part stale (learning changed its context vector, or made it seen). */
  private stale(t: string): void {
    const row = this.parts.rowIndex(t);
    if (row >= 0) this.fresh[row] = 0;
  }

  /** What it has learnt, for saving beside the base (persist.ts): the embedder is a function of it. */
  exportState(): LearnerState {
    const tokens = [...this.df.keys()];
    const df = Int32Array.from(tokens, (t) => this.df.get(t)!);
    const withContext: number[] = [];
    tokens.forEach((t, i) => {
      if (this.context.has(t)) withContext.push(i);
    });
    const context = new Float32Array(withContext.length * this.dim);
    for (let row = 0; row < withContext.length; row++)
      context.set(this.context.view(this.context.rowIndex(tokens[withContext[row]!]!)), row * this.dim);
    return { docs: this.docs, tokens, df, context_rows: Int32Array.from(withContext), context };
  }

  /** Replaces what it has learnt with a saved state (of the same dimension); takes over `st.context`. */
  importState(st: LearnerState): void {
    const { tokens, df, context_rows: rows, context } = st;
    if (df.length !== tokens.length || context.length !== rows.length * this.dim)
      throw new RangeError('the saved learner state does not fit this embedder');
    this.df.clear();
    this.parts.clear();
    this.fresh.fill(0);
    this.weightDocs.fill(-1);
    for (let i = 0; i < tokens.length; i++) this.df.set(tokens[i]!, df[i]!);
    // The saved rows become the store's (no copy): importState's callers hand over arrays made for it.
    this.context.adopt(
      Array.from(rows, (r) => tokens[r]!),
      context,
    );
    this.docs = st.docs;
    this.version++;
  }

  /** The EmbeddingPort shape, for code that treats every embedder alike. */
  embed(texts: string[]): Promise<Float32Array[]> {
    return Promise.resolve(texts.map((t) => this.embedText(t)));
  }
}
