// A server under a hostile-load benchmark: a program started as its user would start it (a child process, here
// the built bin under node), found ready by the URL it prints, watched (alive or not, how many error lines it
// logged) and measured from /proc (resident memory of the process and of its children, its thread count).
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

export interface ServerSpec {
  /** A name for reports. */
  name: string;
  /** The program's arguments after node (the bin's path first). */
  args: string[];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Matched against stdout and stderr as they arrive: its first group is the server's base URL. */
  ready: RegExp;
  /** Default 120 s. */
  readyTimeoutMs?: number;
}

export interface ServerProcess {
  readonly name: string;
  /** Base URL without a trailing slash. */
  readonly url: string;
  readonly pid: number;
  /** Running: not exited, and not a zombie whose exit Node has yet to report. */
  alive(): boolean;
  /** How the process ended (`code 1`, `signal SIGKILL`), waiting up to `waitMs` for Node to report it. */
  exit(waitMs?: number): Promise<string | undefined>;
  /** Log lines (pino JSON) at level error or above seen so far: each stack trace a request caused shows here. */
  errorLogs(): number;
  /** The last few KB of stderr, to say why a server died. */
  stderrTail(): string;
  /** SIGTERM, then SIGKILL if it has not exited after `graceMs` (default 10 s). */
  stop(graceMs?: number): Promise<void>;
}

const TAIL = 8192;

/** Starts `node <spec.args>` and resolves once it printed its URL; rejects if it exits or times out first. */
export function spawnServerProcess(spec: ServerSpec): Promise<ServerProcess> {
  const child: ChildProcess = spawn(process.execPath, spec.args, {
    cwd: spec.cwd,
    env: { ...process.env, ...spec.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let tail = '';
  let errors = 0;
  let seen = '';
  const lines = { out: '', err: '' };
  const countErrors = (which: 'out' | 'err', chunk: string) => {
    lines[which] += chunk;
    let i = lines[which].indexOf('\n');
    while (i >= 0) {
      const line = lines[which].slice(0, i);
      lines[which] = lines[which].slice(i + 1);
      // pino: {"level":50,...} is error, 60 fatal.
      const level = /^\{"level":(\d+)/.exec(line);
      if (level && Number(level[1]) >= 50) errors++;
      i = lines[which].indexOf('\n');
    }
  };
  return new Promise((resolve, reject) => {
    let done = false;
    const timer = setTimeout(() => {
      if (done) return;
      done = true;
      child.kill('SIGKILL');
      reject(new Error(`${spec.name} printed no URL within ${spec.readyTimeoutMs ?? 120_000} ms: ${tail}`));
    }, spec.readyTimeoutMs ?? 120_000);
    const onData = (which: 'out' | 'err') => (d: Buffer) => {
      const s = d.toString('utf8');
      if (which === 'err') tail = (tail + s).slice(-TAIL);
      countErrors(which, s);
      if (done) return;
      seen = (seen + s).slice(-TAIL);
      const m = spec.ready.exec(seen);
      if (!m?.[1]) return;
      done = true;
      clearTimeout(timer);
      resolve(handle(m[1].replace(/\/$/, '')));
    };
    child.stdout!.on('data', onData('out'));
    child.stderr!.on('data', onData('err'));
    child.on('exit', (code, signal) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      reject(new Error(`${spec.name} exited (${signal ?? code}) before it was ready: ${tail}`));
    });
  });

  function handle(url: string): ServerProcess {
    const exited = () => child.exitCode !== null || child.signalCode !== null;
    const how = () => (child.signalCode ? `signal ${child.signalCode}` : `code ${String(child.exitCode)}`);
    const alive = () => !exited() && !/^State:\s+[ZX]/m.test(status(child.pid!) ?? 'State: X');
    return {
      name: spec.name,
      url,
      pid: child.pid!,
      alive,
      exit: (waitMs = 2000) =>
        new Promise((r) => {
          if (exited()) return r(how());
          const t = setTimeout(() => r(undefined), waitMs);
          child.once('exit', () => {
            clearTimeout(t);
            r(how());
          });
        }),
      errorLogs: () => errors,
      stderrTail: () => tail,
      stop: (graceMs = 10_000) =>
        new Promise<void>((r) => {
          if (!alive()) return r();
          const kill = setTimeout(() => child.kill('SIGKILL'), graceMs);
          child.once('exit', () => {
            clearTimeout(kill);
            r();
          });
          child.kill('SIGTERM');
        }),
    };
  }
}

export interface ProcessMemory {
  /** VmRSS of the process (all its threads share it), MB. */
  rss_mb: number;
  /** VmHWM: the highest RSS the process reached, MB. */
  peak_rss_mb: number;
  /** Threads of the process (the event loop, worker threads, libuv's and V8's). */
  threads: number;
  /** Processes it started that are still running (Vina, Open Babel, worker processes), and their RSS, MB. */
  children: number;
  children_rss_mb: number;
}

function status(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return undefined;
  }
}

const field = (text: string, name: string) =>
  Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? Number.NaN);

function childPids(pid: number): number[] {
  const out: number[] = [];
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const t of tasks) {
    try {
      for (const c of readFileSync(`/proc/${pid}/task/${t}/children`, 'utf8').split(' ')) if (c.trim()) out.push(+c);
    } catch {
      // the thread ended meanwhile
    }
  }
  return out;
}

/** A process's memory and threads from /proc (Linux), or undefined when it is gone. */
export function processMemory(pid: number): ProcessMemory | undefined {
  const s = status(pid);
  if (!s) return undefined;
  let children = 0;
  let childKb = 0;
  const stack = childPids(pid);
  // Descendants, bounded: a fork bomb under the server is not this function's to walk forever.
  while (stack.length && children < 1000) {
    const c = stack.pop()!;
    const cs = status(c);
    if (!cs) continue;
    children++;
    childKb += field(cs, 'VmRSS') || 0;
    stack.push(...childPids(c));
  }
  const mb = (kb: number) => Math.round(kb / 1024);
  return {
    rss_mb: mb(field(s, 'VmRSS')),
    peak_rss_mb: mb(field(s, 'VmHWM')),
    threads: field(s, 'Threads'),
    children,
    children_rss_mb: mb(childKb),
  };
}
