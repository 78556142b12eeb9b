// How a server bin stops: the first reason (stdin closed, a signal, a fatal error) starts a graceful close (the
// server, then the base: a write under way finishes, vectors are saved); a close that has not finished by the
// deadline is cut short with a line saying so; a second signal exits at once. Without these a close could wait
// without bound (kb-mcp once stayed 75 s behind writes stalled by another process's lock on the base) while
// every further signal was swallowed by the handler that had started it.
import { constants } from 'node:os';

/** How long a close may take before the process exits anyway. */
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 10_000;

export interface ShutdownOptions {
  /** The bin's name, first on every line it writes. */
  name: string;
  /** Graceful close: the server, then the base. */
  close: () => Promise<void>;
  timeoutMs?: number;
  /** Where the lines go (default stderr). */
  write?: (line: string) => void;
  /** Ends the process (default process.exit); called once. */
  exit?: (code: number) => void;
}

export interface Shutdown {
  /** Starts the close for `why` and exits with `code` when it has finished; later calls do nothing. */
  stop(code: number, why: string): void;
  /** A signal: the first one stops (status 0); one while stopping exits at once, 128 + its number. */
  signal(signal: NodeJS.Signals): void;
  readonly stopping: boolean;
}

export function createShutdown(options: ShutdownOptions): Shutdown {
  const timeoutMs = options.timeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS;
  const write = options.write ?? ((line: string) => process.stderr.write(`${line}\n`));
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let stopping = false;
  let exited = false;
  let timer: NodeJS.Timeout | undefined;
  const end = (code: number) => {
    if (exited) return;
    exited = true;
    clearTimeout(timer);
    exit(code);
  };
  const stop = (code: number, why: string) => {
    if (stopping) return;
    stopping = true;
    write(`${options.name}: stopping (${why})`);
    // Kept referenced: it must fire even when what the close waits for holds nothing else open.
    timer = setTimeout(() => {
      write(
        `${options.name}: the close did not finish within ${timeoutMs / 1000} s; exiting anyway ` +
          '(a write not yet committed is not in the base; nothing committed is lost)',
      );
      end(code === 0 ? 1 : code);
    }, timeoutMs);
    options.close().then(
      () => end(code),
      (e: unknown) => {
        write(`${options.name}: the close failed: ${e instanceof Error ? e.message : String(e)}`);
        end(code === 0 ? 1 : code);
      },
    );
  };
  return {
    stop,
    signal(signal) {
      if (!stopping) return stop(0, signal);
      write(`${options.name}: ${signal} again; exiting now`);
      end(128 + (constants.signals[signal] ?? 0));
    },
    get stopping() {
      return stopping;
    },
  };
}

/** Routes SIGINT and SIGTERM to `shutdown`; returns the function that removes the listeners. */
export function onStopSignals(shutdown: Shutdown): () => void {
  const listeners = (['SIGINT', 'SIGTERM'] as const).map((s) => {
    const listener = () => shutdown.signal(s);
    process.on(s, listener);
    return [s, listener] as const;
  });
  return () => {
    for (const [s, listener] of listeners) process.off(s, listener);
  };
}

/**
 * The close deadline for a bin: `--shutdown-timeout-ms`, else EVIDENT_SHUTDOWN_TIMEOUT_MS, else 10 s. Returns an
 * error message for a value that is not a positive integer.
 */
export function shutdownTimeoutFrom(env: NodeJS.ProcessEnv, flag: string | undefined): number | string {
  const raw = flag ?? env.EVIDENT_SHUTDOWN_TIMEOUT_MS;
  if (raw === undefined || raw.trim() === '') return DEFAULT_SHUTDOWN_TIMEOUT_MS;
  const n = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(n) || n < 1)
    return `--shutdown-timeout-ms (EVIDENT_SHUTDOWN_TIMEOUT_MS) must be a positive integer of milliseconds, got '${raw}'`;
  return n;
}
