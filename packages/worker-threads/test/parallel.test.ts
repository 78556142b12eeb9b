// The parallel-for: every item computed once, by the same code whichever thread takes it, so the results are the
// same bit for bit as on one thread; a kernel's failure on a worker, an abort and an unshared large argument fail
// the call.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  type KernelRef,
  ParallelForError,
  parallelFor,
  sharedF64,
  siblingModule,
  toShared,
  workerBlocks,
} from '@evident/worker-threads';
import { kernels, type RootArgs } from './fixtures/kernels.js';

const newtonRoot: KernelRef = { module: siblingModule(import.meta.url, './fixtures/kernels'), name: 'newtonRoot' };

function input(n: number): Float64Array {
  const x = sharedF64(n);
  for (let i = 0; i < n; i++) x[i] = ((i * 2654435761) % 1000003) / 7.3;
  return x;
}

test('3 threads give the same results bit for bit as 1, and workers take blocks', () => {
  const n = 200_000;
  const x = input(n);
  const one: RootArgs = { x, out: sharedF64(n) };
  const three: RootArgs = { x, out: sharedF64(n) };
  // Workers started by an earlier call are ready when this one comes.
  parallelFor(newtonRoot, kernels.newtonRoot, { x, out: sharedF64(n) }, n, { threads: 3, block: 1000 });
  const firstsOne = parallelFor(newtonRoot, kernels.newtonRoot, one, n, { threads: 1, block: 1000 });
  const before = workerBlocks();
  const firstsThree = parallelFor(newtonRoot, kernels.newtonRoot, three, n, { threads: 3, block: 1000 });
  assert.ok(workerBlocks() > before, 'a worker thread took some of the items');
  for (let i = 0; i < n; i++) assert.ok(Object.is(one.out[i], three.out[i]), `item ${i}`);
  const sorted = (r: unknown[]) => (r as number[]).sort((a, b) => a - b);
  assert.deepEqual(sorted(firstsThree), sorted(firstsOne));
  assert.equal(firstsOne.length, n / 1000);
});

test("a kernel's error on any thread fails the call", () => {
  const n = 50_000;
  const args: RootArgs = { x: input(n), out: sharedF64(n), failAt: n - 1 };
  // Small blocks: the last block is taken by whichever thread comes to it; the call fails either way.
  assert.throws(
    () => parallelFor(newtonRoot, kernels.newtonRoot, args, n, { threads: 2, block: 100 }),
    /item 49999 refused/,
  );
  // The pool still serves the next call.
  const ok: RootArgs = { x: args.x, out: sharedF64(n) };
  parallelFor(newtonRoot, kernels.newtonRoot, ok, n, { threads: 2, block: 100 });
  const alone: RootArgs = { x: args.x, out: sharedF64(n) };
  kernels.newtonRoot(alone, n - 1, n);
  assert.ok(ok.out[n - 1]! > 0 && Object.is(ok.out[n - 1], alone.out[n - 1]));
});

test('an argument over 1 MiB that is not on shared memory is refused before any work', () => {
  const n = 200_000;
  const x = new Float64Array(n).fill(2);
  const out = sharedF64(n);
  assert.throws(
    () => parallelFor(newtonRoot, kernels.newtonRoot, { x, out }, n, { threads: 2 }),
    (e: unknown) => e instanceof ParallelForError && /argument x/.test(e.message),
  );
  assert.equal(out[0], 0);
  parallelFor(newtonRoot, kernels.newtonRoot, { x: toShared(x), out }, n, { threads: 2 });
  assert.ok(Math.abs(out[n - 1]! - Math.SQRT2) < 1e-9);
});

test('an aborted signal stops the calling thread at its next block', () => {
  const n = 10_000;
  const controller = new AbortController();
  controller.abort(new Error('stopped'));
  assert.throws(
    () =>
      parallelFor(newtonRoot, kernels.newtonRoot, { x: input(n), out: sharedF64(n) }, n, {
        threads: 2,
        block: 10,
        signal: controller.signal,
      }),
    /stopped/,
  );
});
