// The messages between a base's thread and its replica thread (replica.ts, replica-thread.ts). The replica is
// a graph index of its own, fed the log's records since its last position; each job runs on it as of the log
// position the base had when the job was asked.
import type { SerializedError } from '@evident/contract';
import type { ConfidencePolicy } from '../model/confidence.js';
import type { LogRecord } from '../store/types.js';
import type { WhatIfSummaryInput } from '../write/what-if-graph.js';

export interface ReplicaData {
  /** The base's confidence policy and validation mode: a what-if captures claims as the base would. */
  policy: ConfidencePolicy;
  strict: boolean;
  /** Nice steps the thread takes at its start, below the base's thread (offload/threads.ts). */
  nice: number;
}

export type ReplicaJob =
  | {
      kind: 'cypher';
      cypher: string;
      params: Record<string, unknown>;
      timeout_ms: number;
      max_rows: number;
      max_list_size: number;
      /** Run as EXPLAIN / PROFILE (RawQueryOptions.mode). */
      mode?: 'explain' | 'profile';
      /** The view's moment (Infinity: the live graph). */
      as_of: number;
      /** 'value': the result object; 'json': its JSON text, made on the replica thread (what a server sends). */
      format: 'value' | 'json';
    }
  | { kind: 'what_if'; input: WhatIfSummaryInput };

export type ToReplica =
  /** Records after the replica's position, in order, none past the position of the jobs that follow. */
  { op: 'feed'; records: LogRecord[] } | { op: 'run'; id: number; job: ReplicaJob };

export type FromReplica =
  | { type: 'started'; id: number }
  | { type: 'done'; id: number; value?: unknown; json?: Uint8Array; error?: SerializedError };
