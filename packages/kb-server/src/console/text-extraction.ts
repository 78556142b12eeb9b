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
  const queue = new ExtractionQueue({ ...TEXT_EXTRACTION_DEFAULTS, ...settings });
  return {
    extract: (text, seed) => queue.extract(text, seed),
    close: () => queue.close(),
    pid: () => queue.pid(),
  };
}

const stopChild = (c: ChildProcess | undefined) => {
  if (c && c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
};

/** The queue of jobs and the one child serving them; methods by event (start, answer, exit, budget, idle). */
class ExtractionQueue {
  private readonly queue: Job[] = [];
  private child: ChildProcess | undefined;
  private ready = false;
  private running: Job | undefined;
  private budget: NodeJS.Timeout | undefined;
  private idle: NodeJS.Timeout | undefined;
  private startedAt = 0;

  constructor(private readonly settings: Required<TextExtractionSettings>) {}

  pid(): number | undefined {
    return this.child?.pid;
  }

  extract(text: string, seed: ExtractSeed): Promise<ExtractOutput> {
    const { timeoutMs, maxWaiting } = this.settings;
    const waiting = this.queue.length + (this.running ? 1 : 0);
    if (waiting >= maxWaiting) {
      const left = this.running ? Math.max(1, Math.ceil((timeoutMs - (performance.now() - this.startedAt)) / 1000)) : 1;
      return Promise.reject(new KbBusyError('text extractions', waiting, left));
    }
    return new Promise<ExtractOutput>((resolve, reject) => {
      this.queue.push({ text, seed, resolve, reject });
      this.next();
    });
  }

  close(): void {
    clearTimeout(this.idle);
    const c = this.child;
    this.child = undefined;
    this.ready = false;
    const job = this.running;
    this.finish();
    stopChild(c);
    for (const j of [...(job ? [job] : []), ...this.queue.splice(0)])
      j.reject(new KbOffThreadUnavailableError('the text extraction process was closed'));
  }

  private start(): ChildProcess {
    const c = fork(fileURLToPath(childModule), [], {
      execArgv: childExecArgv(this.settings.heapMb),
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    let stderr = '';
    c.stderr!.on('data', (d: Buffer) => {
      stderr = (stderr + String(d)).slice(-4000);
    });
    c.on('message', (m: Answer) => this.onAnswer(c, m));
    c.on('exit', (code, signal) => this.onExit(c, code, signal, stderr));
    c.on('error', () => {}); // 'exit' follows and answers
    return c;
  }

  private onAnswer(c: ChildProcess, m: Answer): void {
    if (c !== this.child) return;
    if (m.ready) {
      this.ready = true;
      this.next();
      return;
    }
    const job = this.running!;
    this.finish();
    if (m.error) job.reject(deserializeError(m.error));
    else job.resolve(m.out!);
    this.next();
  }

  private onExit(c: ChildProcess, code: number | null, signal: NodeJS.Signals | null, stderr: string): void {
    if (c !== this.child) return;
    const job = this.running;
    this.child = undefined;
    this.ready = false;
    this.finish();
    const oom = /heap out of memory|allocation failed/i.test(stderr);
    if (job) {
      job.reject(
        oom
          ? new ExtractionMemoryError(this.settings.heapMb)
          : new KbOffThreadUnavailableError(`the text extraction process ended (${signal ?? `code ${code}`})`),
      );
    } else if (this.queue.length) {
      // It ended before taking a job: those waiting would only start another that fails the same way.
      for (const j of this.queue.splice(0))
        j.reject(
          new KbOffThreadUnavailableError(`the text extraction process could not start (${signal ?? `code ${code}`})`),
        );
    }
    this.next();
  }

  private finish(): void {
    clearTimeout(this.budget);
    this.budget = undefined;
    this.running = undefined;
  }

  private next(): void {
    if (this.running) return;
    clearTimeout(this.idle);
    if (!this.queue.length) {
      if (this.child) this.idle = setTimeout(() => this.close(), this.settings.idleMs).unref();
      return;
    }
    if (!this.child) this.child = this.start();
    if (!this.ready) return;
    this.send(this.child, this.queue.shift()!);
  }

  /** Hands the job to the child, with its time budget: past it the child is killed and the job answered 408. */
  private send(c: ChildProcess, job: Job): void {
    const { timeoutMs } = this.settings;
    this.running = job;
    this.startedAt = performance.now();
    this.budget = setTimeout(() => {
      if (c !== this.child || this.running !== job) return;
      this.child = undefined;
      this.ready = false;
      this.finish();
      stopChild(c);
      job.reject(new ExtractionTimeoutError(timeoutMs));
      this.next();
    }, timeoutMs);
    c.send({ text: job.text, seed: job.seed });
  }
}
