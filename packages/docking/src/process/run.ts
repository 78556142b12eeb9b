// One child process, run to completion with bounds: no shell (arguments go as an array), a timeout, an
// AbortSignal, and captured output capped so a runaway tool cannot fill memory. On timeout or abort the child is
// killed with SIGKILL (Vina ignores nothing, but a hung grid computation would not notice a SIGTERM any sooner).
// The child also dies with its parent: see parentDeathWrapper.
import { execFile, spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { DockingAbortedError, DockingFailedError } from '../errors.js';

export interface RunOptions {
  /** What this run is, for error messages: "vina docking", "ligand 3D build". */
  step: string;
  /** The ligand it concerns, if any (named in errors). */
  ligand?: string;
  cwd?: string;
  /** Written to the child's stdin, then stdin is closed. */
  input?: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Captured bytes per stream beyond which the run fails (default 32 MiB). */
  maxOutputBytes?: number;
  /** Exit codes treated as success (default [0]). */
  okCodes?: readonly number[];
}

export interface RunResult {
  stdout: string;
  stderr: string;
  code: number;
}

/** How many trailing characters of stderr an error keeps. */
const STDERR_TAIL = 4000;

/**
 * A tool run by a process that is then killed (kill -9, the OOM killer) would run on, orphaned, and hold its
 * cores for nothing. On Linux the kernel can signal a child when the thread that started it dies
 * (prctl PR_SET_PDEATHSIG); util-linux's `setpriv --pdeathsig KILL -- <tool> ...` sets that and then execs the
 * tool, which keeps its PID, exit code and signals. util-linux is Essential in Debian (bookworm: 2.38.1, with
 * --pdeathsig since 2.33), so no package is added. The wrapper is used only when `setpriv --pdeathsig KILL --
 * setpriv --dump` reports the signal set; elsewhere tools run unwrapped, and the next process's sweep of stale
 * scratch directories (temp.ts) kills the orphans working there. Chosen over a watchdog process per child (one
 * more process per run, and a watchdog killed with the parent would need a watchdog itself).
 */
let wrapper: Promise<string | undefined> | undefined;
export function parentDeathWrapper(): Promise<string | undefined> {
  wrapper ??= new Promise((resolve) => {
    if (process.platform !== 'linux') return resolve(undefined);
    const path = (process.env.PATH ?? '')
      .split(delimiter)
      .concat('/usr/bin', '/bin')
      .map((d) => join(d, 'setpriv'))
      .find((p) => {
        try {
          accessSync(p, constants.X_OK);
          return true;
        } catch {
          return false;
        }
      });
    if (!path) return resolve(undefined);
    execFile(path, ['--pdeathsig', 'KILL', '--', path, '--dump'], { timeout: 10_000 }, (e, stdout) =>
      resolve(!e && /Parent death signal: KILL/.test(stdout) ? path : undefined),
    );
  });
  return wrapper;
}

export async function runTool(path: string, args: readonly string[], o: RunOptions): Promise<RunResult> {
  if (o.signal?.aborted) throw new DockingAbortedError(o.step);
  const setpriv = await parentDeathWrapper();
  return runChild(setpriv ?? path, setpriv ? ['--pdeathsig', 'KILL', '--', path, ...args] : args, path, o);
}

function runChild(command: string, args: readonly string[], path: string, o: RunOptions): Promise<RunResult> {
  if (o.signal?.aborted) return Promise.reject(new DockingAbortedError(o.step));
  const max = o.maxOutputBytes ?? 32 * 1024 * 1024;
  return new Promise<RunResult>((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: o.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, LC_ALL: 'C' },
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outBytes = 0;
    let errBytes = 0;
    let failure: Error | undefined;
    const stderrTail = () => Buffer.concat(err).toString('utf8').slice(-STDERR_TAIL);
    const fail = (e: Error) => {
      if (failure) return;
      failure = e;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(
      () => fail(new DockingFailedError(`timed out after ${o.timeoutMs} ms`, { ...who(o), stderr: stderrTail() })),
      o.timeoutMs,
    );
    const onAbort = () => fail(new DockingAbortedError(o.step));
    o.signal?.addEventListener('abort', onAbort, { once: true });

    child.stdout.on('data', (b: Buffer) => {
      outBytes += b.length;
      if (outBytes > max) fail(new DockingFailedError(`wrote more than ${max} bytes to stdout`, who(o)));
      else out.push(b);
    });
    child.stderr.on('data', (b: Buffer) => {
      errBytes += b.length;
      if (errBytes > max) fail(new DockingFailedError(`wrote more than ${max} bytes to stderr`, who(o)));
      else err.push(b);
    });
    // A child that exits before reading its stdin makes the write fail with EPIPE; its exit code tells the story.
    child.stdin.on('error', () => {});
    child.stdin.end(o.input ?? '');

    child.on('error', (e) =>
      fail(new DockingFailedError(`could not start ${path}: ${e.message}`, { ...who(o), cause: e })),
    );
    child.on('close', (code, sig) => {
      clearTimeout(timer);
      o.signal?.removeEventListener('abort', onAbort);
      if (failure) return reject(failure);
      const stdout = Buffer.concat(out).toString('utf8');
      const stderr = Buffer.concat(err).toString('utf8');
      const ok = o.okCodes ?? [0];
      if (code === null || !ok.includes(code)) {
        const how = code === null ? `was killed by ${sig}` : `exited with code ${code}`;
        // Vina prints its errors on stdout, Open Babel on stderr: keep whichever has text.
        const said = stderr.trim() ? stderr : stdout;
        return reject(new DockingFailedError(how, { ...who(o), stderr: said.slice(-STDERR_TAIL) }));
      }
      resolve({ stdout, stderr, code });
    });
  });
}

function who(o: RunOptions): { step: string; ligand?: string } {
  return o.ligand === undefined ? { step: o.step } : { step: o.step, ligand: o.ligand };
}
