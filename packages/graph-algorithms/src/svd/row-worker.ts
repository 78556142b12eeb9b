// A worker of the row team (row-team.ts): waits for an operation, takes blocks until none is left, repeats.
import { workerData } from 'node:worker_threads';
import type { RowBuffers } from './row-ops.js';
import { blockCount } from './row-ops.js';
import { claimTag, GEN, STOP, takeBlocks } from './row-team.js';

const { control, buffers } = workerData as { control: Int32Array; buffers: RowBuffers };
const blocks = blockCount(buffers.n);
let seen = 0;
for (;;) {
  Atomics.wait(control, GEN, seen);
  if (Atomics.load(control, STOP) === 1) break;
  seen = Atomics.load(control, GEN);
  takeBlocks(control, buffers, claimTag(seen), blocks);
}
