// ReadSnapshot: everything a reader may see of the graph index, read-only. Readers (facade/view.ts, the query and
// path expansions, and every stage: analytics, search, ...) reach the graph through a ReadContext over one
// of these, never through GraphState itself. Columns are exposed as typed arrays because the query paths
// walk them in tight loops; they are indexed by claim, fact or entity number and must not be written.
import type { ClaimEntry } from '../model/entries.js';
import type { Registry } from '../model/registry.js';
import type { FactAdjacency } from './adjacency.js';
import type { DerivedIndex } from './derived.js';
import type { InquiryState } from './inquiries.js';

export interface ReadSnapshot {
  readonly registry: Registry;
  /**
   * Changes with every change to the graph or its derived indexes (GraphState bumps it in beforeChange, which
   * every write calls first), so a reader may keep what it derived from this snapshot while it is unchanged.
   * Absent: keep nothing.
   */
  readonly version?: number;

  // entities
  readonly entityIndex: ReadonlyMap<string, number>;
  readonly entityIds: readonly string[];
  readonly entityType: readonly string[];
  readonly entityNorm: readonly string[];
  readonly entityName: readonly string[];
  readonly entityAliases: ReadonlyMap<number, ReadonlySet<string>>;
  /** Types other than its own an entity was stated with (unified with its own: a gene and its protein). */
  readonly entityOtherTypes: ReadonlyMap<number, readonly string[]>;
  /** Entity index for a normalised (type, canonical name), or undefined (unified types find one entity). */
  entityOf(type: string, norm: string): number | undefined;
  /** Normalised canonical name -> entities with that name (any type). */
  readonly nameIndex: ReadonlyMap<string, readonly number[]>;
  /** Active claims mentioning the entity (a self-loop counts once). */
  readonly entityActive: Int32Array;
  /** The entity's first fact, or -1; walk on with nextFact. */
  firstFact(e: number): number;
  nextFact(f: number, e: number): number;
  /**
   * The same lists as columns, for walks in tight loops: entityFirstFact[e] is firstFact(e); after fact f, e's
   * list goes on at factNextS[f] when e is f's subject, else at factNextO[f] (-1 ends).
   */
  readonly entityFirstFact: Int32Array;
  readonly factNextS: Int32Array;
  readonly factNextO: Int32Array;
  /**
   * Facts that had no live claim when the bits were made (live reads: a set bit is a hint, factSources says),
   * over the first deadFactsCovered facts; null: none ever lost its last live claim. Clear bits are live.
   */
  readonly deadFacts: Uint32Array | null;
  readonly deadFactsCovered: number;
  /** Each entity's facts in a row (adjacency.ts): over the facts of when it was made; walk on with tail(). */
  readonly adjacency: FactAdjacency;
  /** Scratch marks for one expansion at a time, at least one per entity; pair with nextVisitEpoch(). */
  visitMarks(): Uint32Array;
  nextVisitEpoch(): number;

  // predicates, sources
  readonly predIndex: ReadonlyMap<string, number>;
  readonly predName: readonly string[];
  readonly predClass: readonly string[];
  readonly sourceIndex: ReadonlyMap<string, number>;
  readonly sourceIds: readonly string[];
  readonly sourceTypeName: readonly string[];

  // facts (corroboration groups)
  readonly factCount: number;
  readonly factS: Int32Array;
  readonly factO: Int32Array;
  readonly factP: Int32Array;
  /** First claim of the fact; claims chain through claimNextInFact (-1 ends). */
  readonly factFirst: Int32Array;
  readonly factClaimCount: Int32Array;
  /** Distinct sources among the fact's active claims. */
  readonly factSources: Int32Array;
  /** Facts whose subject is their object (counted once in adjacency). */
  readonly selfLoops: number;
  contentIdOfFact(f: number): string;
  factByContentId(contentId: string): number | undefined;
  claimsOfFact(f: number): number[];

  // claims
  readonly claimCount: number;
  readonly activeClaims: number;
  readonly claimFact: Int32Array;
  readonly claimSource: Int32Array;
  readonly claimSourceType: Int32Array;
  readonly claimConf: Float64Array;
  readonly claimTs: Float64Array;
  readonly claimStatus: Uint8Array;
  readonly claimRetractTs: Float64Array;
  readonly claimDegradeTs: Float64Array;
  readonly claimNextInFact: Int32Array;
  /** claim -> claims whose provenance.derived_from names it. */
  readonly dependents: ReadonlyMap<number, readonly number[]>;
  claimIdOf(c: number): string;
  claimIndexOf(claimId: string): number | undefined;
  /** The claim as it was written (raw spellings, provenance, payload). */
  claimEntryOf(c: number): ClaimEntry;
  /** The claim's payload, or undefined (cheaper than claimEntryOf on the apply path). */
  claimPayloadOf(c: number): unknown;

  // Deliberate likeness: InquiryGraph (inquiries.ts) is a list of readonly fields too, the inquiry book's narrow view.
  /** Retractions in log order: when, which source, why, and the claims each retracted and degraded (audit). */
  readonly retractions: readonly {
    readonly ts: number;
    readonly source_id: string;
    readonly reason: string;
    readonly cascade: boolean;
    readonly retracted: readonly number[];
    readonly degraded: readonly number[];
  }[];

  // derived indexes
  readonly inquiries: readonly InquiryState[];
  readonly inquiryIndex: ReadonlyMap<string, number>;
  derivedIndex(name: string): DerivedIndex | undefined;
}
