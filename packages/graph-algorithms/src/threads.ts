// What the package's worker threads share: how one is started on a module of this package, and typed arrays moved
// into shared memory.
import { Worker } from 'node:worker_threads';

/**
 * `callerUrl`: the starting module's import.meta.url; `sibling`: the worker module's path from it, without
 * extension. From the TypeScript sources (tests and benchmarks run them through tsx) the worker must register tsx's
 * loader before it can import a .ts module; the built package starts the compiled file directly.
 */
export function startPackageWorker(callerUrl: string, sibling: string, workerData: unknown): Worker {
  const worker = callerUrl.endsWith('.ts')
    ? new Worker(
        `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((m) => { m.register(); return import(${JSON.stringify(new URL(`${sibling}.ts`, callerUrl).href)}); });`,
        { eval: true, workerData },
      )
    : new Worker(new URL(`${sibling}.js`, callerUrl), { workerData });
  // A worker that fails to start leaves its share to the others; nothing waits for it.
  worker.on('error', () => {});
  worker.unref();
  return worker;
}

/** `x` itself when it is already in shared memory, else a copy that is. */
export function toShared<T extends Int32Array | Float64Array>(x: T): T {
  if (x.buffer instanceof SharedArrayBuffer) return x;
  const copy = (
    x instanceof Int32Array
      ? new Int32Array(new SharedArrayBuffer(4 * x.length))
      : new Float64Array(new SharedArrayBuffer(8 * x.length))
  ) as T;
  copy.set(x);
  return copy;
}
