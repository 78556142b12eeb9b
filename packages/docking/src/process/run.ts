// One child process, run to completion with bounds: no shell (arguments go as an array), a timeout, an
// AbortSignal, and captured output capped so a runaway tool cannot fill memory. On timeout or abort the child is
// killed with SIGKILL (Vina ignores nothing, but a hung grid computation would not notice a SIGTERM any sooner).
import { spawn } from 'node:child_process';
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

export function runTool(path: string, args: readonly string[], o: RunOptions): Promise<RunResult> {
  if (o.signal?.aborted) return Promise.reject(new DockingAbortedError(o.step));
  const max = o.maxOutputBytes ?? 32 * 1024 * 1024;
  return new Promise<RunResult>((resolve, reject) => {
    const child = spawn(path, args, {
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
