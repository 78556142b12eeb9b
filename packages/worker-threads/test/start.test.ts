// Starting a worker on a module of the calling package from its TypeScript sources (these tests run under tsx),
// and a worker's end reported once as an error that says what ended it.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { test } from 'node:test';
import type { Worker } from 'node:worker_threads';
import {
  onWorkerEnd,
  resolutionExecArgv,
  siblingModule,
  startWorker,
  tsxRegisterUrl,
  type WorkerEndedError,
} from '@evident/worker-threads';

const echo = siblingModule(import.meta.url, './fixtures/echo-thread');

function ended(worker: Worker, heapMb?: number): Promise<WorkerEndedError[]> {
  const seen: WorkerEndedError[] = [];
  onWorkerEnd(worker, (e) => seen.push(e), heapMb);
  // 'exit' always comes last; the errors seen by then are all there will be. (events.once would reject on 'error'.)
  return new Promise((resolve) => worker.on('exit', () => setImmediate(() => resolve(seen))));
}

test('siblingModule picks the .ts source for a .ts caller and the .js build for a .js one', () => {
  assert.equal(siblingModule('file:///p/src/a/pool.ts', './worker').href, 'file:///p/src/a/worker.ts');
  assert.equal(siblingModule('file:///p/dist/src/a/pool.js', '../b/worker').href, 'file:///p/dist/src/b/worker.js');
});

test('a worker on a .ts module starts through tsx and gets its workerData', async () => {
  assert.match(tsxRegisterUrl(), /^file:.*tsx/);
  const worker = startWorker(echo, { workerData: { n: 7, a: [1, 2] } });
  const [hello] = (await once(worker, 'message')) as [{ workerData: unknown; url: string }];
  assert.deepEqual(hello.workerData, { n: 7, a: [1, 2] });
  assert.equal(hello.url, echo.href);
  const seen = ended(worker);
  worker.postMessage({ exit: 3 });
  const errors = await seen;
  assert.equal(errors.length, 1);
  assert.equal(errors[0]!.code, 'worker_exited');
  assert.equal(errors[0]!.exitCode, 3);
});

test('a plain JavaScript worker starts without tsx, with only the module-resolution flags', async () => {
  const plain = new URL('./fixtures/plain-thread.mjs', import.meta.url);
  const worker = startWorker(plain, { workerData: { n: 8 }, plain: true });
  const [hello] = (await once(worker, 'message')) as [{ workerData: unknown; execArgv: string[] }];
  assert.deepEqual(hello.workerData, { n: 8 });
  // These tests run under `--import tsx`: the thread did not get it (nor the bootstrap that registers it).
  assert.ok(process.execArgv.some((f) => f.includes('tsx')));
  assert.deepEqual(hello.execArgv, resolutionExecArgv());
  await worker.terminate();
});

test('an uncaught error in the thread is one worker_failed, not also an exit', async () => {
  const worker = startWorker(echo);
  await once(worker, 'message');
  const seen = ended(worker);
  worker.postMessage({ throw: 'boom' });
  const errors = await seen;
  assert.equal(errors.length, 1);
  assert.equal(errors[0]!.code, 'worker_failed');
  assert.match(errors[0]!.message, /boom/);
});

test('past its heap cap the thread ends with worker_out_of_memory', async () => {
  const worker = startWorker(echo, { resourceLimits: { maxOldGenerationSizeMb: 24 } });
  await once(worker, 'message');
  const seen = ended(worker, 24);
  worker.postMessage({ allocate: true });
  const errors = await seen;
  assert.equal(errors.length, 1);
  assert.equal(errors[0]!.code, 'worker_out_of_memory');
  assert.equal(errors[0]!.heapMb, 24);
});

test('resolutionExecArgv keeps only the module-resolution flags', () => {
  assert.deepEqual(
    resolutionExecArgv(['--import', 'tsx', '--conditions=evident-source', '--test', '-C', 'x', '-Cy', '--inspect']),
    ['--conditions=evident-source', '-C', 'x', '-Cy'],
  );
});
