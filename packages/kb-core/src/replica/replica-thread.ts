// The replica thread: a graph index of its own, built by the write path's own catch-up from the log records the
// base's thread sends (so it is the same function of the log as the base's index), and the jobs run on it, one
// at a time, each after the records up to the base's position when it was asked. Nothing here writes.
import { parentPort, workerData } from 'node:worker_threads';
import { serializeError } from '@evident/contract';
import { lowerThreadPriority } from '@evident/worker-threads';
import { rawQuery } from '../cypher/raw-query.js';
import { ClaimCapture } from '../write/capture.js';
import { EventHub } from '../write/events.js';
import type { StateRef } from '../write/write-path.js';
import { whatIfSummaryOf } from '../write/what-if-graph.js';
import { WritePath } from '../write/write-path.js';
import { ReadContext } from '../graph/read.js';
import type { ClaimStore, LogRecord } from '../store/types.js';
import type { FromReplica, ReplicaData, ReplicaJob, ToReplica } from './protocol.js';

const port = parentPort!;
const data = workerData as ReplicaData;
// Below the base's event loop, before the replica is built (offload/README.md, "Priority").
lowerThreadPriority(data.nice);

// The log as the base's thread sends it: readAfter hands over what has arrived, and the write path's catch-up
// applies it exactly as an open applies the log.
const arrived: LogRecord[] = [];
const feed: ClaimStore = {
  backend: 'replica',
  location: '',
  shared: false,
  readAfter: async () => arrived.splice(0, arrived.length),
  head: async () => 0,
  append: () => Promise.reject(new Error('a replica is read-only')),
  close: async () => {},
};
const ref = { current: undefined } as unknown as StateRef;
const w = new WritePath(feed, ref, new EventHub());
ref.current = w.newGraph();
const capture = new ClaimCapture(data.policy);

async function run(job: ReplicaJob): Promise<FromReplica & { type: 'done' }> {
  if (job.kind === 'cypher') {
    const r = rawQuery(new ReadContext(ref.current, job.as_of), job.cypher, job.params, {
      timeout_ms: job.timeout_ms,
      max_rows: job.max_rows,
      max_list_size: job.max_list_size,
      mode: job.mode,
    });
    // The JSON text is made here, so that the base's thread sends it as it is instead of serialising it.
    if (job.format === 'json') return { type: 'done', id: 0, json: new TextEncoder().encode(JSON.stringify(r)) };
    return { type: 'done', id: 0, value: r };
  }
  // The replica has no search index to leave out of a copy.
  return { type: 'done', id: 0, value: await whatIfSummaryOf(w, capture, job.input, data.strict, undefined) };
}

async function handle(m: ToReplica): Promise<void> {
  if (m.op === 'feed') {
    arrived.push(...m.records);
    await w.catchUp(null);
    return;
  }
  port.postMessage({ type: 'started', id: m.id } satisfies FromReplica);
  let answer: FromReplica;
  try {
    answer = { ...(await run(m.job)), id: m.id };
  } catch (e) {
    answer = { type: 'done', id: m.id, error: serializeError(e) };
  }
  port.postMessage(answer, answer.json ? [answer.json.buffer as ArrayBuffer] : []);
}

// One message at a time, in the order sent: a job runs after the records sent before it. Records that cannot be
// applied leave no replica to answer from: the thread ends with the error, and the base's thread reports it.
let queue = Promise.resolve();
port.on('message', (m: ToReplica) => {
  queue = queue
    .then(() => handle(m))
    .catch((e: unknown) => {
      setImmediate(() => {
        throw e;
      });
    });
});
