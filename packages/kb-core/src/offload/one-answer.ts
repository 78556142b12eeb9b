// A worker thread started for one job: it may post progress, then posts one answer (or a serialized error),
// and is ended once that answer has come.
import { deserializeError, type SerializedError } from '@evident/contract';
import { startWorker } from '@evident/worker-threads';
import { KbOffThreadUnavailableError } from './errors.js';

/** What the thread could not do, as the caller's errors say it. */
export interface ThreadFailures {
  /** Prefix of the message when the thread fails; the thread's own message follows in parentheses. */
  failed: string;
  /** The message when the thread ends without an answer. */
  ended: string;
}

/** Runs `job` on a worker of `threadModule` and settles with `answer` of its one message. */
export function oneAnswer<M extends { error?: SerializedError }, R>(
  threadModule: URL,
  job: unknown,
  answer: (m: M) => R,
  failures: ThreadFailures,
  progress?: (fraction: number) => void,
): Promise<R> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const worker = startWorker(threadModule, { workerData: job });
    worker.on('message', (m: M & { progress?: number }) => {
      if (m.progress !== undefined) {
        progress?.(m.progress);
        return;
      }
      settled = true;
      void worker.terminate();
      if (m.error) reject(deserializeError(m.error));
      else resolve(answer(m));
    });
    worker.on('error', (e) => {
      if (settled) return;
      settled = true;
      reject(new KbOffThreadUnavailableError(`${failures.failed} (${e.message})`));
    });
    worker.on('exit', () => {
      if (!settled) reject(new KbOffThreadUnavailableError(failures.ended));
      settled = true;
    });
  });
}
