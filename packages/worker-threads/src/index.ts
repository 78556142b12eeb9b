// Worker threads for every package: one way to start one from sources or built code, its end as an error, typed
// arrays on shared memory, and a synchronous parallel-for.
export { onWorkerEnd } from './ends.js';
export { ParallelForError, WORKER_ERRORS, type WorkerErrorCode, WorkerEndedError, WorkerStartError } from './errors.js';
export type { Kernel } from './parallel/blocks.js';
export { type KernelRef, MAX_WORKERS, type ParallelOptions, parallelFor, workerBlocks } from './parallel/pool.js';
export { lowerThreadPriority } from './priority.js';
export { isShared, sharedF64, sharedI32, sharedU8, toShared } from './shared.js';
export {
  isSourceModule,
  resolutionExecArgv,
  type StartOptions,
  siblingModule,
  startWorker,
  tsxRegisterUrl,
} from './start.js';
export { READY_EXPIRES_MS, READY_MIN_BYTES, type ReadyBuffer, type ReadyKind, requestReady } from './ready-memory.js';
