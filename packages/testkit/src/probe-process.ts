// A prober in a child process: the bench's own process parses the hostile answers (forty searches of 1,000 claims,
// megabytes each) on the thread its in-process prober would time probes on, which added up to a second to a probe
// (measured: 1.9 s in process, 0.8 s from a child, same run). From a process of its own the slowest probe is the
// server's delay, not the bench's.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type Exchange, type HostileRequest, type Prober, summariseExchanges } from './hostile.js';

const child = fileURLToPath(
  new URL(import.meta.url.endsWith('.ts') ? './probe-child.ts' : './probe-child.js', import.meta.url),
);

/**
 * startProber's counterpart, run by a node child process (with this process's flags: a .ts child under tsx).
 * Resolves once the child's first probe is answered, so that a case starting then is probed from its first moment
 * (the child takes a second or so to start).
 */
export async function startProcessProber(
  base: string,
  probe: HostileRequest,
  intervalMs: number,
  timeoutMs: number,
): Promise<Prober> {
  const p = spawn(
    process.execPath,
    [...process.execArgv, child, base, JSON.stringify(probe), String(intervalMs), String(timeoutMs)],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  let out = '';
  let firstLine: () => void = () => {};
  const started = new Promise<void>((r) => {
    firstLine = r;
  });
  p.stdout!.setEncoding('utf8');
  p.stdout!.on('data', (d: string) => {
    out += d;
    if (out.includes('\n')) firstLine();
  });
  const exited = new Promise<void>((r) =>
    p.once('close', () => {
      firstLine();
      r();
    }),
  );
  await started;
  return {
    async stop() {
      p.stdin!.end();
      await exited;
      const got: Exchange[] = out
        .split('\n')
        .filter(Boolean)
        .map((line) => ({ req: probe, ...(JSON.parse(line) as Omit<Exchange, 'req'>) }));
      return summariseExchanges(got);
    },
  };
}
