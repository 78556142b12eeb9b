// Starting a worker thread on a module of the calling package, whether the package runs from its TypeScript
// sources (tests and benchmarks under tsx, `--conditions=evident-source`) or from its compiled dist. The compiled
// module is started directly. A .ts module needs tsx's loader inside the thread: on Node 20 a worker inherits the
// parent's --import flags, but their hooks are not active yet for the worker's entry module, so a one-line
// bootstrap registers tsx in the thread before it imports the module.
import { type ResourceLimits, type TransferListItem, Worker } from 'node:worker_threads';
import { WorkerStartError } from './errors.js';

/**
 * The module `sibling` (a path relative to `callerUrl`, without extension) in the form the caller runs in: its
 * .ts source when the caller is a .ts source, else its compiled .js.
 */
export function siblingModule(callerUrl: string, sibling: string): URL {
  return new URL(`${sibling}${callerUrl.endsWith('.ts') ? '.ts' : '.js'}`, callerUrl);
}

export interface StartOptions {
  workerData?: unknown;
  transferList?: TransferListItem[];
  /** The heap cap and stack of the thread; past `maxOldGenerationSizeMb` it dies (`worker_out_of_memory`). */
  resourceLimits?: ResourceLimits;
  /** Node flags of the thread; by default the parent's (see `resolutionExecArgv`). */
  execArgv?: string[];
  /**
   * The module and all it imports are plain JavaScript (no TypeScript, no workspace package whose export under
   * `evident-source` is TypeScript): started as it is even when this process runs the sources, without tsx in the
   * thread (which costs it 100-200 ms to start), with only this process's module-resolution flags by default.
   */
  plain?: boolean;
}

// Resolving tsx goes through the module loader (a synchronous round trip to the loader's thread under tsx):
// done once per process, not once per worker.
let tsxApi: string | Error | undefined;

/** The URL of tsx's register API, resolved once; a WorkerStartError when tsx is not installed. */
export function tsxRegisterUrl(): string {
  if (tsxApi === undefined) {
    try {
      tsxApi = import.meta.resolve('tsx/esm/api');
    } catch (e) {
      tsxApi = new WorkerStartError('a worker on TypeScript sources needs tsx, which cannot be found', e);
    }
  }
  if (tsxApi instanceof Error) throw tsxApi;
  return tsxApi;
}

/** Whether `module` is a TypeScript source. */
export function isSourceModule(module: URL | string): boolean {
  return (typeof module === 'string' ? module : module.href).endsWith('.ts');
}

// This package running from its own sources means the process runs workspace sources under tsx, and a thread
// inherits `--conditions=evident-source`: even a built module may then import a package whose export under that
// condition is TypeScript (a built graph-algorithms worker importing this package), so such a thread gets tsx too.
const processRunsSources = import.meta.url.endsWith('.ts');

/**
 * A worker thread on `module` (from `siblingModule`, or any file URL), through the tsx bootstrap when the module is
 * TypeScript or this process runs the workspace's sources. Throws WorkerStartError when tsx is needed and missing. The caller decides whether the thread keeps the process alive (`unref`) and how
 * its end is handled (`onWorkerEnd`).
 */
export function startWorker(module: URL, options: StartOptions = {}): Worker {
  const { workerData, transferList, resourceLimits, execArgv, plain } = options;
  const settings = { workerData, transferList, resourceLimits, execArgv };
  if (plain && !isSourceModule(module))
    return new Worker(module, { ...settings, execArgv: execArgv ?? resolutionExecArgv() });
  if (!isSourceModule(module) && !processRunsSources) return new Worker(module, settings);
  const boot = `import(${JSON.stringify(tsxRegisterUrl())}).then((t) => { t.register(); return import(${JSON.stringify(module.href)}); });`;
  return new Worker(boot, { ...settings, eval: true });
}

/**
 * Only the module-resolution flags of this process (`--conditions`, `-C`): for a thread that must resolve
 * `evident-source` like its parent without the parent's other flags (test-runner and inspector flags are not valid
 * for a worker, and `--import tsx` would load tsx a second time in it).
 */
export function resolutionExecArgv(argv: readonly string[] = process.execArgv): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const f = argv[i]!;
    if (f.startsWith('--conditions=') || (f.startsWith('-C') && f.length > 2)) out.push(f);
    else if ((f === '--conditions' || f === '-C') && i + 1 < argv.length) out.push(f, argv[++i]!);
  }
  return out;
}
