// Shared test helpers: in-process servers on free ports, real HTTP calls, CLI child processes.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { tempDir } from '@evident/testkit';
import { createClient } from '../src/client/client.js';
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

/**
 * Polls `fn` until it returns something truthy. The pause starts at `everyMs` and grows by half up to half a second, so
 * a condition that comes quickly is seen quickly and one that takes a slow machine a minute costs few requests
 * (a poll that calls the API spends the key's per-minute budget). The bound is generous on purpose: it is only
 * reached when the condition never comes, and a busy machine must not turn a late condition into a failure.
 */
export async function waitFor<T>(
  fn: () => Promise<T | undefined | false>,
  timeoutMs = 60_000,
  everyMs = 50,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  let pause = everyMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`waitFor: the condition did not hold within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, pause));
    pause = Math.min(Math.max(everyMs, 500), Math.ceil(pause * 1.5));
  }
}

/**
 * Waits until the job leaves `processing` and returns its status document. Polls through the typed client, which
 * backs off and honours `Retry-After` on 429: a job that runs longer than on the author's machine must not turn the
 * key's rate limit into a test failure. Any other error answer throws.
 */
export async function waitForStatus(base: string, key: string, jobId: string, timeoutMs = 120_000): Promise<any> {
  const client = createClient({ baseUrl: base, apiKey: key });
  return client.waitForJob(jobId, { intervalMs: 50, maxIntervalMs: 1000, timeoutMs });
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
