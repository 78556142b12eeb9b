// The log's entries: what a write appends and a replay applies (claims one by one or as a ClaimRun, retractions,
// inquiries, registrations). Claims as data, so the store (which keeps them) and the graph (which applies them)
// both import them from here.
import type { Inquiry } from '../types.js';
import type { ClaimRun } from './claim-run.js';

/** A claim as written to the log: the caller's ClaimInput plus the id the engine assigned. */
export interface ClaimEntry {
  kind: 'claim';
  claim_id: string;
  subject: [string, string];
  predicate: [string, string];
  object: [string, string];
  provenance: { source_type: string; source_id: string; derived_from?: string[]; [k: string]: unknown };
  confidence: number;
  payload?: unknown;
}

/** Retraction of every claim of a source that is not retracted yet; `cascade` also degrades dependants. */
export interface RetractEntry {
  kind: 'retract';
  source_id: string;
  reason: string;
  cascade: boolean;
}

/** An inquiry as asked (its state is the graph's): subject_type / object_type absent means any type. */
export interface InquiryEntry
  extends Pick<
    Inquiry,
    'inquiry_id' | 'question' | 'subject' | 'object' | 'predicate_hint' | 'subject_type' | 'object_type'
  > {
  kind: 'inquiry';
}

export interface VocabularyEntry {
  kind: 'vocabulary';
  namespace: string;
  /** The vocabulary document (see registry.ts); shipped ones are stored in full too. */
  vocab: unknown;
}

export interface PredicateEntry {
  kind: 'predicate';
  predicate_type: string;
  subject_types: string[];
  object_types: string[];
  predicate_class?: string;
}

export interface PayloadSchemaEntry {
  kind: 'payload_schema';
  predicate_type: string;
  schema: unknown;
}

export type LogEntry =
  | ClaimEntry
  | ClaimRun
  | RetractEntry
  | InquiryEntry
  | VocabularyEntry
  | PredicateEntry
  | PayloadSchemaEntry;

/**
 * An entry as read back: its sequence number and the time (ms since epoch, UTC) it was appended. A ClaimRun's
 * record holds the seq of its first claim and covers `n` seqs (see entrySpan in store/log-span.ts).
 */
export interface LogRecord {
  seq: number;
  ts: number;
  entry: LogEntry;
}
