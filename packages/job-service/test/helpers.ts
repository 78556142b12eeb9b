// Shared test helpers: in-process servers on free ports, real HTTP calls, CLI child processes.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { tempDir } from '@evident/testkit';
import { configFromEnv, type ServiceConfig } from '../src/config.js';
import { startServer, type RunningServer, type ServeOptions } from '../src/service.js';

export const pkgDir = fileURLToPath(new URL('..', import.meta.url));
export const cliPath = fileURLToPath(new URL('../src/cli/main.ts', import.meta.url));
/** The tests' job kind (not a production one): servers, workers and the CLI load it from this module. */
export const demoKindModule = fileURLToPath(new URL('./demo-kind.ts', import.meta.url));

export function testConfig(over: Partial<ServiceConfig> = {}): ServiceConfig {
  return {
    ...configFromEnv({}),
    port: 0,
    workerThreads: 2,
    retryBaseMs: 100,
    allowPrivateCallbacks: true,
    callbackBaseDelayMs: 50,
    logLevel: 'silent',
    queueMaintenanceSeconds: 1,
    kindModules: [demoKindModule],
    ...over,
  };
}

export interface TestServer extends RunningServer {
  cleanup(): Promise<void>;
}

export async function startTestServer(over: Partial<ServiceConfig> = {}, opts: ServeOptions = {}): Promise<TestServer> {
  const dir = tempDir('evident-jobs-');
  const server = await startServer(testConfig({ dataDir: dir.path, ...over }), { logger: false, ...opts });
  return {
    ...server,
    async cleanup() {
      await server.close().catch(() => {});
      dir.cleanup();
    },
  };
}

export interface Answer<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export async function http<T = any>(
  base: string,
  method: string,
  path: string,
  opts: { key?: string | undefined; body?: unknown; raw?: string | Buffer; headers?: Record<string, string> } = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.key) headers.authorization = `Bearer ${opts.key}`;
  let body: string | Buffer | undefined;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] ??= 'application/json';
  } else if (opts.raw !== undefined) body = opts.raw;
  const res = await fetch(base + path, { method, headers, body });
  const text = await res.text();
  let parsed: any;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

export async function waitFor<T>(
  fn: () => Promise<T | undefined | false>,
  timeoutMs = 20_000,
  everyMs = 100,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error('waitFor: timed out');
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export async function waitForStatus(base: string, key: string, jobId: string, timeoutMs = 30_000) {
  return waitFor(async () => {
    const r = await http(base, 'GET', `/v1/jobs/${jobId}`, { key });
    return r.body?.status !== 'processing' ? r.body : undefined;
  }, timeoutMs);
}

/** Asserts the one error shape of the API. */
export function isErrorBody(b: any): boolean {
  return (
    b !== null &&
    typeof b === 'object' &&
    typeof b.error === 'object' &&
    typeof b.error.code === 'string' &&
    typeof b.error.message === 'string' &&
    b.error.message.length > 0 &&
    Object.keys(b).length === 1
  );
}

/** `node --conditions=evident-source --import tsx src/cli/main.ts ...args` */
export function spawnCli(args: string[], env: NodeJS.ProcessEnv = {}): ChildProcess {
  return spawn(process.execPath, ['--conditions=evident-source', '--import', 'tsx', cliPath, ...args], {
    cwd: pkgDir,
    env: { ...process.env, EVIDENT_LOG_LEVEL: 'warn', EVIDENT_JOB_KIND_MODULES: demoKindModule, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

export async function runCli(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  stdin?: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = spawnCli(args, env);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  if (stdin !== undefined) child.stdin!.end(stdin);
  else child.stdin!.end();
  const code = await new Promise<number>((r) => child.on('exit', (c) => r(c ?? -1)));
  return { code, stdout, stderr };
}

/** Calls `each` with every JSON object the child prints on its own line of stdout; other lines are ignored. */
export function onJsonLines(child: ChildProcess, each: (o: any) => void): void {
  let buf = '';
  child.stdout!.on('data', (d) => {
    buf += d;
    for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      let o: unknown;
      try {
        o = JSON.parse(line);
      } catch {
        continue; // not JSON
      }
      each(o);
    }
  });
}

/** Resolves with the first JSON line on stdout that satisfies `match`. */
export function jsonLine(child: ChildProcess, match: (o: any) => boolean, timeoutMs = 30_000): Promise<any> {
  return new Promise((resolve, reject) => {
    let err = '';
    const t = setTimeout(() => reject(new Error(`no matching line within ${timeoutMs} ms; stderr: ${err}`)), timeoutMs);
    child.stderr!.on('data', (d) => (err += d));
    onJsonLines(child, (o) => {
      if (match(o)) {
        clearTimeout(t);
        resolve(o);
      }
    });
    child.on('exit', (c) => reject(new Error(`process exited (${c}) before the expected line; stderr: ${err}`)));
  });
}

export function killHard(child: ChildProcess): Promise<void> {
  return new Promise((r) => {
    if (child.exitCode !== null || child.signalCode !== null) return r();
    child.once('exit', () => r());
    child.kill('SIGKILL');
  });
}
