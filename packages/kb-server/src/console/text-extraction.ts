// ingestText's heuristic extraction off the console's event loop: a child process (text-extraction-child.ts) with
// a heap cap runs it (kb-extract's TextExtractor, set with useTextExtractor), and the console only sends the text and
// the base's seed and commits what comes back. Not a worker thread: the extraction imports the KB library, whose
// vector index (usearch's native module) hangs when loaded on a worker thread. Past its time budget the child is
// killed (408 extraction_timeout), past its heap cap it dies (413 extraction_memory_limit); either way its memory
// goes back to the system and the next call starts a fresh one. An idle child ends after `idleMs`.
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { EvidentError, deserializeError, type SerializedError } from '@evident/contract';
import {
  type ExtractOutput,
  type ExtractSeed,
  KbBusyError,
  KbOffThreadUnavailableError,
  type TextExtractor,
} from '@evident/kb';

export interface TextExtractionSettings {
  /** Heap cap of the child in MB (--max-old-space-size); default 1024. */
  heapMb?: number;
  /** Time budget of one extraction in ms, from when the child starts on it; default 60,000. */
  timeoutMs?: number;
  /** The child ends after this long without a call; default 30,000. */
  idleMs?: number;
  /** Calls running or waiting at most; one more is refused (429 busy); default 4. */
  maxWaiting?: number;
}

export const TEXT_EXTRACTION_DEFAULTS = { heapMb: 1024, timeoutMs: 60_000, idleMs: 30_000, maxWaiting: 4 } as const;

export interface TextExtractionProcess {
  extract: TextExtractor;
  /** Ends the child (a call running is answered 503); later calls start a new one. */
  close(): void;
  /** The child's process id while it runs. */
  pid(): number | undefined;
}

interface Job {
  text: string;
  seed: ExtractSeed;
  resolve(out: ExtractOutput): void;
  reject(e: unknown): void;
}

interface Answer {
  ready?: true;
  out?: ExtractOutput;
  error?: SerializedError;
}

// The child from the sources under tsx (tests, benchmarks on sources), else the compiled .js beside this one.
const childModule = new URL(
  `./text-extraction-child${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`,
  import.meta.url,
);

function childExecArgv(heapMb: number): string[] {
  const flags = [`--max-old-space-size=${heapMb}`];
  if (childModule.href.endsWith('.ts'))
    flags.push(`--import=${import.meta.resolve('tsx')}`, '--conditions=evident-source');
  return flags;
}

export class ExtractionTimeoutError extends EvidentError {
  constructor(timeoutMs: number) {
    super(
      'extraction_timeout',
      `extracting claims from the text ran past its budget of ${timeoutMs} ms and was stopped; send a shorter text`,
      { status: 408, problems: [{ path: '/text', message: `extraction ran past ${timeoutMs} ms` }] },
    );
  }
}

export class ExtractionMemoryError extends EvidentError {
  constructor(heapMb: number) {
    super(
      'extraction_memory_limit',
      `extracting claims from the text needed more than its heap cap of ${heapMb} MB and was stopped; send a shorter text`,
      { status: 413, problems: [{ path: '/text', message: `extraction needed more than ${heapMb} MB` }] },
    );
  }
}

/** One child at a time, jobs in the order asked; see the module comment. */
export function textExtractionProcess(settings: TextExtractionSettings = {}): TextExtractionProcess {
  const { heapMb, timeoutMs, idleMs, maxWaiting } = { ...TEXT_EXTRACTION_DEFAULTS, ...settings };
  const queue: Job[] = [];
  let child: ChildProcess | undefined;
  let ready = false;
  let running: Job | undefined;
  let budget: NodeJS.Timeout | undefined;
  let idle: NodeJS.Timeout | undefined;
  let startedAt = 0;

  const stop = (c: ChildProcess | undefined) => {
    if (c && c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  };

  function start(): ChildProcess {
    const c = fork(fileURLToPath(childModule), [], {
      execArgv: childExecArgv(heapMb),
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    let stderr = '';
    c.stderr!.on('data', (d: Buffer) => {
      stderr = (stderr + String(d)).slice(-4000);
    });
    c.on('message', (m: Answer) => {
      if (c !== child) return;
      if (m.ready) {
        ready = true;
        next();
        return;
      }
      const job = running!;
      finish();
      if (m.error) job.reject(deserializeError(m.error));
      else job.resolve(m.out!);
      next();
    });
    c.on('exit', (code, signal) => {
      if (c !== child) return;
      const job = running;
      child = undefined;
      ready = false;
      finish();
      const oom = /heap out of memory|allocation failed/i.test(stderr);
      if (job) {
        job.reject(
          oom
            ? new ExtractionMemoryError(heapMb)
            : new KbOffThreadUnavailableError(`the text extraction process ended (${signal ?? `code ${code}`})`),
        );
      } else if (queue.length) {
        // It ended before taking a job: those waiting would only start another that fails the same way.
        for (const j of queue.splice(0))
          j.reject(
            new KbOffThreadUnavailableError(
              `the text extraction process could not start (${signal ?? `code ${code}`})`,
            ),
          );
      }
      next();
    });
    c.on('error', () => {}); // 'exit' follows and answers
    return c;
  }

  function finish(): void {
    clearTimeout(budget);
    budget = undefined;
    running = undefined;
  }

  function next(): void {
    if (running) return;
    clearTimeout(idle);
    if (!queue.length) {
      if (child) idle = setTimeout(() => close(), idleMs).unref();
      return;
    }
    if (!child) child = start();
    if (!ready) return;
    const job = queue.shift()!;
    running = job;
    startedAt = performance.now();
    const c = child;
    budget = setTimeout(() => {
      if (c !== child || running !== job) return;
      child = undefined;
      ready = false;
      finish();
      stop(c);
      job.reject(new ExtractionTimeoutError(timeoutMs));
      next();
    }, timeoutMs);
    c.send({ text: job.text, seed: job.seed });
  }

  function close(): void {
    clearTimeout(idle);
    const c = child;
    child = undefined;
    ready = false;
    const job = running;
    finish();
    stop(c);
    for (const j of [...(job ? [job] : []), ...queue.splice(0)])
      j.reject(new KbOffThreadUnavailableError('the text extraction process was closed'));
  }

  const extract: TextExtractor = (text, seed) => {
    const waiting = queue.length + (running ? 1 : 0);
    if (waiting >= maxWaiting) {
      const left = running ? Math.max(1, Math.ceil((timeoutMs - (performance.now() - startedAt)) / 1000)) : 1;
      return Promise.reject(new KbBusyError('text extractions', waiting, left));
    }
    return new Promise<ExtractOutput>((resolve, reject) => {
      queue.push({ text, seed, resolve, reject });
      next();
    });
  };
  return { extract, close, pid: () => child?.pid };
}
