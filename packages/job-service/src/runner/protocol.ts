// Messages between the service and its worker threads. Errors cross as @evident/contract's SerializedError.
import type { SerializedError } from '@evident/contract';
import type { KindSettings, PrepareContext } from '../kinds/job-kind.js';

export type ThreadTask =
  /** `inputDir`: where a large prepared input is written as a file (Store.inputDir) instead of sent back. */
  | {
      type: 'prepare';
      taskId: number;
      kind: string;
      request: unknown;
      limits?: PrepareContext['limits'];
      inputDir?: string;
    }
  | {
      type: 'prepare-raw';
      taskId: number;
      kind: string;
      raw: Uint8Array;
      limits?: PrepareContext['limits'];
      inputDir?: string;
    }
  /** `inputPath`: the file that holds the input (then `input` is empty), read by the thread. */
  | { type: 'run'; taskId: number; kind: string; input: Uint8Array; inputPath?: string; attempt: number }
  /** Renders a stored result: its main table as CSV, or (kinds with a page) a self-contained HTML page. */
  | {
      type: 'csv';
      taskId: number;
      kind: string;
      result: Uint8Array;
      format?: 'csv' | 'html' | 'calls.csv' | 'enrichment.csv';
      jobId?: string;
    };

/** Given to every thread at its start. */
export interface ThreadData {
  kindModules: string[];
  settings: KindSettings;
  /** Nice steps the thread takes at its start (job threads: below the loop; @evident/worker-threads' lowerThreadPriority). */
  nice?: number;
}

export type ToThread = ThreadTask | { type: 'abort'; taskId: number };

export type FromThread =
  /** Sent once, when the thread has loaded its kinds: deadlines never count a thread's start-up. */
  | { type: 'ready'; taskId: 0 }
  | { type: 'progress'; taskId: number; stage: string; percent: number }
  | {
      type: 'prepared';
      taskId: number;
      /** Empty when `inputFile` (a name in the task's inputDir, written and synced) holds it. */
      input: Uint8Array;
      inputFile?: string;
      estimate: [number, number];
      callback_url?: string | undefined;
    }
  | { type: 'done'; taskId: number; result: Uint8Array; targets: Array<Record<string, unknown>> }
  | { type: 'csv'; taskId: number; csv: Uint8Array }
  /** `fatal`: the thread must not be used again (a WebAssembly trap left an engine's module unusable). */
  | { type: 'error'; taskId: number; error: SerializedError; fatal?: boolean };
