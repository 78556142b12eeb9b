// Profiling aid: the benchmark's feed (10,000-claim batches, defaults on) with the main thread's wall time of the
// ingest split into the apply (GraphState.applyRun), handing the run to the writer thread (beginAppend: encoding
// and transfer; appendOnThread's too), the wait for the writer thread's commit (from the apply's end for a run
// written whole beside it), and the rest (capture, checks, ids, events). The
// methods are wrapped here, in the profiling aid, so the library carries no timers.
//   N=100000 nice -n 10 node --conditions=evident-source --import tsx bench/profile-feed-split.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { GraphState } from '../src/graph/state.js';
import { open } from '../src/index.js';
import { SqliteClaimStore } from '../src/store/sqlite.js';
import type { PendingAppend } from '../src/store/types.js';
import { claimBatches } from './workload.js';

const N = Number(process.env.N ?? 100_000);
const ms = { apply: 0, beginAppend: 0, commitWait: 0 };

const applyRun = GraphState.prototype.applyRun;
GraphState.prototype.applyRun = function (this: GraphState, ...args: Parameters<typeof applyRun>) {
  const t = performance.now();
  try {
    return applyRun.apply(this, args);
  } finally {
    applyEnd = performance.now();
    ms.apply += applyEnd - t;
  }
};
const beginAppend = SqliteClaimStore.prototype.beginAppend;
SqliteClaimStore.prototype.beginAppend = function (this: SqliteClaimStore, ...args: Parameters<typeof beginAppend>) {
  const t = performance.now();
  const pending: PendingAppend | undefined = beginAppend.apply(this, args);
  ms.beginAppend += performance.now() - t;
  if (!pending) return pending;
  const commit = pending.commit.bind(pending);
  pending.commit = async () => {
    const w = performance.now();
    try {
      return await commit();
    } finally {
      ms.commitWait += performance.now() - w;
    }
  };
  return pending;
};

// A run the store writes whole beside the apply (write-path.ts, appendEarly): the wait counts from the apply's end.
let applyEnd = 0;
const appendOnThread = SqliteClaimStore.prototype.appendOnThread;
SqliteClaimStore.prototype.appendOnThread = function (
  this: SqliteClaimStore,
  ...args: Parameters<typeof appendOnThread>
) {
  const t = performance.now();
  const started = appendOnThread.apply(this, args);
  ms.beginAppend += performance.now() - t;
  if (!started) return started;
  // Waited for only when the commit was not known at the apply's end.
  let known = false;
  const waited = (first: number) => {
    if (!known) ms.commitWait += Math.max(0, performance.now() - applyEnd);
    return first;
  };
  const committed = () => {
    const first = started.committed();
    known = first !== undefined;
    return first;
  };
  return { done: started.done.then(waited), committed };
};

const dir = mkdtempSync(join(tmpdir(), 'kb-feed-split-'));
try {
  const db = await open(join(dir, 'feed.kb'));
  let ingestMs = 0;
  let n = 0;
  for (const b of claimBatches(N, 10_000)) {
    const t0 = performance.now();
    n += (await db.ingestBatch(b)).ingested;
    ingestMs += performance.now() - t0;
  }
  await db.close();
  const r = Math.round;
  console.log(
    JSON.stringify({
      ingested: n,
      claims_per_sec: r(n / (ingestMs / 1000)),
      ingest_ms: r(ingestMs),
      apply_ms: r(ms.apply),
      begin_append_ms: r(ms.beginAppend),
      commit_wait_ms: r(ms.commitWait),
      rest_ms: r(ingestMs - ms.apply - ms.beginAppend - ms.commitWait),
    }),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
