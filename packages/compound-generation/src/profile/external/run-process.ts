// The one place the engine starts a process: a user's external scorer (REINVENT 4's ExternalProcess), run to
// completion with bounds. No shell (the arguments go as an array), input on stdin, a timeout, an AbortSignal,
// and stdout capped so that a runaway scorer cannot fill memory. The child leads a process group of its own so
// that a timeout or an abort kills what it started too (`conda run`, a shell script's children), and a
// grandchild that keeps the pipes open after the child has gone cannot make the run wait forever.
import { spawn } from 'node:child_process';
import { GenerationAbortedError } from '../../errors.js';
import { ExternalScorerError } from '../errors.js';

export interface ProcessRequest {
  executable: string;
  args: readonly string[];
  /** Written to stdin, which is then closed. */
  input: string;
  timeoutMs: number;
  /** Bytes of stdout beyond which the run fails. */
  maxOutputBytes: number;
  signal?: AbortSignal;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}

export interface ProcessResult {
  stdout: string;
  /** The end of stderr (at most STDERR_KEPT bytes). */
  stderr: string;
}

/**
 * Runs a scorer and returns its output, or throws ExternalScorerError (spawn_failed, exit_status, killed,
 * timeout, output_too_large) or GenerationAbortedError. A test or a service can replace it (ProcessRunner).
 */
export type ProcessRunner = (request: ProcessRequest) => Promise<ProcessResult>;

/** stderr kept for messages: the last 64 KiB (stderr never fails a run, it is only reported). */
const STDERR_KEPT = 64 * 1024;
/** After the child exits, how long its pipes may stay open (held by a grandchild) before we stop reading. */
const PIPE_GRACE_MS = 2000;

export const runProcess: ProcessRunner = (r) => {
  const command = [r.executable, ...r.args];
  if (r.signal?.aborted) return Promise.reject(new GenerationAbortedError());
  return new Promise<ProcessResult>((resolve, reject) => {
    const child = spawn(r.executable, [...r.args], {
      cwd: r.cwd,
      env: r.env ?? process.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
      shell: false,
    });
    const out: Buffer[] = [];
    let outBytes = 0;
    let err = Buffer.alloc(0);
    let failure: Error | undefined;
    let settled = false;
    let grace: NodeJS.Timeout | undefined;
    const stderrText = () => err.toString('utf8');

    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const fail = (e: Error) => {
      if (failure) return;
      failure = e;
      killGroup();
    };
    const timer = setTimeout(
      () => fail(new ExternalScorerError('timeout', `no answer within ${r.timeoutMs} ms`, command, stderrText())),
      r.timeoutMs,
    );
    const onAbort = () => fail(new GenerationAbortedError());
    r.signal?.addEventListener('abort', onAbort, { once: true });

    const finish = (code: number | null, sig: NodeJS.Signals | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (grace) clearTimeout(grace);
      r.signal?.removeEventListener('abort', onAbort);
      child.stdout.destroy();
      child.stderr.destroy();
      if (failure) return reject(failure);
      if (code === null) {
        return reject(new ExternalScorerError('killed', `was killed by ${sig}`, command, stderrText()));
      }
      if (code !== 0) {
        return reject(new ExternalScorerError('exit_status', `exited with status ${code}`, command, stderrText()));
      }
      resolve({ stdout: Buffer.concat(out).toString('utf8'), stderr: stderrText() });
    };

    child.stdout.on('data', (b: Buffer) => {
      outBytes += b.length;
      if (outBytes > r.maxOutputBytes) {
        fail(
          new ExternalScorerError(
            'output_too_large',
            `wrote more than ${r.maxOutputBytes} bytes to stdout`,
            command,
            stderrText(),
          ),
        );
      } else out.push(b);
    });
    child.stderr.on('data', (b: Buffer) => {
      err = Buffer.concat([err, b]);
      if (err.length > STDERR_KEPT) err = err.subarray(err.length - STDERR_KEPT);
    });
    // A scorer that exits without reading its stdin makes the write fail with EPIPE; its exit status tells.
    child.stdin.on('error', () => {});
    child.stdin.end(r.input);

    child.on('error', (e) => {
      // Not started (ENOENT, EACCES): no 'exit' follows.
      fail(new ExternalScorerError('spawn_failed', `could not be started: ${e.message}`, command, '', { cause: e }));
      finish(null, null);
    });
    child.on('exit', (code, sig) => {
      grace = setTimeout(() => finish(code, sig), PIPE_GRACE_MS);
    });
    child.on('close', (code, sig) => finish(code, sig));
  });
};
