// The fields of one claim as the apply takes them. The graph keeps one such object and refills it per claim
// (see GraphState.applyRun): a structure instead of sixteen positional arguments, at no allocation per claim.
import type { ClaimEntry } from '../model/entries.js';
import type { PendingEvent } from './events.js';

export interface ClaimFields {
  subjectName: string;
  subjectType: string;
  relationship: string;
  predicateClass: string;
  objectName: string;
  objectType: string;
  sourceType: string;
  sourceId: string;
  confidence: number;
  /** The full provenance when it has more than source_type and source_id (kept as it is), else null. */
  provenance: ClaimEntry['provenance'] | null;
  payload: unknown;
  /** With idCounter >= 0: the id the engine generated (see ClaimIds); else claimId is the id. */
  idPrefix: string;
  idCounter: number;
  claimId: string;
  ts: number;
  events: PendingEvent[] | null;
  /** StringTable.hash of subjectName, objectName and sourceId (an Int32Array: stored without boxing). */
  hashes: Int32Array;
}

/** A ClaimFields with every field set, so that the object keeps one shape while it is refilled. */
export function emptyClaimFields(): ClaimFields {
  return {
    subjectName: '',
    subjectType: '',
    relationship: '',
    predicateClass: '',
    objectName: '',
    objectType: '',
    sourceType: '',
    sourceId: '',
    confidence: 0,
    provenance: null,
    payload: undefined,
    idPrefix: '',
    idCounter: -1,
    claimId: '',
    // Started at a non-number so that V8 keeps the field tagged: the run's timestamp (above 2^31, so a heap
    // number) is then one object, passed as it is to each derived index's onClaim. A double field gave every
    // claim's call a heap number of its own (16 bytes of young garbage per claim).
    ts: null as unknown as number,
    events: null,
    hashes: new Int32Array(3),
  };
}
