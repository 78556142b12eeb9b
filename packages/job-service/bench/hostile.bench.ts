// npm run bench:hostile (job API; also part of bench:fuzz): issue #37's hostile load against the built
// `evident-jobs serve` (`tsc -b` first), started as a user would: node, embedded mode with a temp data dir,
// 127.0.0.1, a free port, default limits, and a key made with `evident-jobs keys create` (enterprise, with a
// request rate high enough that the rate limiter does not answer for the server). Structure sources point at a
// closed loopback port: nothing leaves the machine. Baseline: GET /v1/jobs?limit=1 (the cheapest authenticated
// GET) on the quiet server. Then each case of bench/hostile-cases.ts while a prober sends that request every
// 50 ms; then 60 s of quiet and the server's RSS (VmRSS, /proc). Prints JSON: per case its statuses, 5xx, answers
// out of the error shape, unanswered requests and slowest probe, and the goals (0 5xx, 0 out of shape,
// 0 unanswered, RSS < 300 MB, slowest probe < 1 s) each met or not.
//
// For development: HOSTILE_SCALE (default 1) shrinks the large sizes, HOSTILE_SETTLE_S (60) the quiet waits,
// HOSTILE_BASELINE_N (100) the baseline, HOSTILE_TIMEOUT_MS (150000) a request's deadline, HOSTILE_JOB_TIMEOUT_S
// (900) the jobs' wait, HOSTILE_CASES a comma-separated list of words: only the cases whose name contains one run,
// HOSTILE_NODE_FLAGS flags for the server's node (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`).
// The server's environment includes the variables the bin's `#!/usr/bin/env -S NAME=value node` line sets (glibc's
// mmap threshold), as when the installed bin runs; a variable already in this process's environment wins.
//
// Three processes: this one only probes (and reads the server's memory), the cases' requests are built and sent
// by bench/hostile-load.ts in a child process, and the server is a third: the slowest probe is the server's.
import { type ChildProcess, fork, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type HostileCase, envNumber, runHostileBench, spawnServerProcess, tempDir } from '@evident/testkit';
import type { FromChild, ToChild } from './hostile-load.js';

const scale = envNumber('HOSTILE_SCALE', 1);
const cli = fileURLToPath(new URL('../dist/src/cli/main.js', import.meta.url));
const closed = 'http://127.0.0.1:9';
const nodeFlags = (process.env.HOSTILE_NODE_FLAGS ?? '').split(' ').filter(Boolean);

const dir = tempDir('evident-jobs-hostile-');
let load: ChildProcess | undefined;
const env: NodeJS.ProcessEnv = {
  ...shebangEnv(cli),
  EVIDENT_DATA_DIR: dir.path,
  // Embedded, whatever the caller's environment holds.
  DATABASE_URL: '',
  REDIS_URL: '',
  EVIDENT_JOB_KIND_MODULES: '',
  EVIDENT_RCSB_SEARCH_URL: closed,
  EVIDENT_RCSB_FILES_URL: closed,
  EVIDENT_ALPHAFOLD_API_URL: closed,
  EVIDENT_ALPHAFOLD_FILES_URL: closed,
};
try {
  const made = spawnSync(
    process.execPath,
    [cli, 'keys', 'create', '--data-dir', dir.path, '--plan', 'enterprise', '--name', 'development'].concat([
      '--rpm',
      '1000000',
      '--concurrency',
      '10',
    ]),
    { env: { ...process.env, ...env }, encoding: 'utf8' },
  );
  if (made.status !== 0) throw new Error(`keys create failed: ${made.stderr}`);
  const key = (JSON.parse(made.stdout.trim().split('\n').pop()!) as { key: string }).key;
  load = fork(fileURLToPath(new URL('./hostile-load.ts', import.meta.url)), {
    env: { ...process.env, HOSTILE_KEY: key },
  });
  const cases = await loadCases(load);
  const report = await runHostileBench({
    start: () =>
      spawnServerProcess({
        name: 'evident-jobs',
        args: [...nodeFlags, cli, 'serve', '--data-dir', dir.path, '--port', '0', '--host', '127.0.0.1'],
        env,
        ready: /"url":"(http:\/\/127\.0\.0\.1:\d+)"/,
      }),
    probe: {
      why: 'probe',
      method: 'GET',
      path: '/v1/jobs?limit=1',
      headers: { authorization: `Bearer ${key}` },
      mayPass: true,
    },
    cases,
    baselineN: envNumber('HOSTILE_BASELINE_N', 100),
    timeoutMs: envNumber('HOSTILE_TIMEOUT_MS', 150_000),
    settleMs: envNumber('HOSTILE_SETTLE_S', 60) * 1000,
  });
  // What glibc's malloc was told (the bin's settings or this process's): RSS after large bodies depends on it.
  const mallocEnv = Object.fromEntries(
    Object.entries({ ...process.env, ...env }).filter(([k]) => k.startsWith('MALLOC_') || k === 'GLIBC_TUNABLES'),
  );
  const title = `job API hostile load (issue #37), scale ${scale}`;
  console.log(JSON.stringify({ benchmark: title, server_malloc_env: mallocEnv, ...report }, null, 2));
} finally {
  load?.kill();
  dir.cleanup();
}

/** NAME=value pairs of the bin's `#!/usr/bin/env -S ...` line, but for those this process's environment sets. */
function shebangEnv(path: string): NodeJS.ProcessEnv {
  const first = readFileSync(path, 'utf8').split('\n', 1)[0] ?? '';
  const out: NodeJS.ProcessEnv = {};
  if (!first.startsWith('#!/usr/bin/env -S ')) return out;
  for (const word of first.slice('#!/usr/bin/env -S '.length).split(/\s+/)) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(word);
    if (!m) break;
    const [, name, value] = m as unknown as [string, string, string];
    if (process.env[name] === undefined) out[name] = value;
  }
  return out;
}

/** The next message from the load process (its exit is an error). */
function next(child: ChildProcess): Promise<FromChild> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`the load process exited (${code})`));
    child.once('exit', onExit);
    child.once('message', (m: FromChild) => {
      child.off('exit', onExit);
      resolve(m);
    });
  });
}

/** The cases, each run by the load process: this process relays its settle requests and collects its exchanges. */
async function loadCases(child: ChildProcess): Promise<HostileCase[]> {
  const ready = await next(child);
  if (ready.type !== 'ready') throw new Error(`unexpected message from the load process: ${ready.type}`);
  const tell = (m: ToChild) => child.send(m);
  return ready.names.map((name, index) => ({
    name,
    async run(c) {
      tell({ type: 'run', index, url: c.url });
      for (;;) {
        const m = await next(child);
        if (m.type === 'settle') {
          await c.settle();
          tell({ type: 'settled' });
        } else if (m.type === 'done') return { exchanges: m.exchanges, extra: m.extra };
        else throw new Error(m.type === 'failed' ? m.message : `unexpected message: ${m.type}`);
      }
    },
  }));
}
