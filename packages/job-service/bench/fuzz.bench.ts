// npm run bench:fuzz (job API): the fuzz tests' seeded requests (test/fuzz-cases.ts), 2,000 of them, against real
// `evident-jobs serve` processes: embedded mode, and PostgreSQL mode with two instances sharing the database and
// Redis (when both are reachable; else reported as missing). Per mode: statuses, 5xx, answers not in the error
// shape, RSS before and after, the slowest small request, and as same-run baseline the slowest of as many plain
// GET /v1/jobs requests sent the same way before the fuzz. Prints JSON.
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import {
  createTempDatabase,
  probePostgres,
  probeRedis,
  redisUrl,
  runFuzz,
  tempDir,
  type FuzzRequest,
} from '@evident/testkit';
import { isSmall, jobApiRequests } from '../test/fuzz-cases.js';
import { jsonLine, killHard, runCli, spawnCli } from '../test/helpers.js';

const N = Number(process.env.BENCH_FUZZ_REQUESTS ?? 2000);
const SEED = Number(process.env.BENCH_FUZZ_SEED ?? 2026);
const LIMIT = 16 * 1024;
const TIMEOUT_MS = 1500;
const CONCURRENCY = 25;

const rssMb = (pid: number) =>
  Math.round(Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? Number.NaN) / 1024);

const serverEnv = (extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv => ({
  EVIDENT_BODY_LIMIT_MB: String(LIMIT / 2 ** 20),
  EVIDENT_INLINE_JSON_LIMIT_BYTES: '4096',
  EVIDENT_REQUEST_TIMEOUT_MS: String(TIMEOUT_MS),
  EVIDENT_HEADERS_TIMEOUT_MS: String(TIMEOUT_MS),
  ...extra,
});

async function serve(env: NodeJS.ProcessEnv, args: string[] = []): Promise<{ child: ChildProcess; url: string }> {
  const child = spawnCli(['serve', '--port', '0', '--threads', '1', ...args], env);
  const line = await jsonLine(child, (o) => o.evident_jobs === 'listening', 120_000);
  return { child, url: line.url };
}

async function createKey(env: NodeJS.ProcessEnv): Promise<string> {
  const r = await runCli(
    ['keys', 'create', '--plan', 'enterprise', '--name', 'fuzz', '--rpm', '1000000', '--concurrency', '5'],
    env,
  );
  if (r.code !== 0) throw new Error(`keys create: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!).key;
}

/** The baseline: N plain GET /v1/jobs?limit=1 in the same batches, slowest answer. */
async function plainSlowest(urls: string[], key: string): Promise<number> {
  const plain: FuzzRequest[] = Array.from({ length: Math.min(N, 500) }, () => ({
    why: 'plain',
    method: 'GET',
    path: '/v1/jobs?limit=1',
    headers: { authorization: `Bearer ${key}` },
    mayPass: true,
  }));
  let i = 0;
  const s = await runFuzz(urls[0]!, plain, { concurrency: CONCURRENCY, base: () => urls[i++ % urls.length]! });
  if (s.non_conforming) throw new Error(`plain requests failed: ${s.examples.join('; ')}`);
  return s.slowest_small_ms;
}

async function fuzzMode(mode: string, urls: string[], pids: number[], key: string) {
  const baseline = await plainSlowest(urls, key);
  const rss_before_mb = pids.map(rssMb);
  const reqs = jobApiRequests(N, SEED, { key, bodyLimit: LIMIT, requestTimeoutMs: TIMEOUT_MS });
  let i = 0;
  const t0 = performance.now();
  const { failures: _, ...summary } = await runFuzz(urls[0]!, reqs, {
    concurrency: CONCURRENCY,
    small: isSmall,
    base: () => urls[i++ % urls.length]!,
  });
  return {
    mode,
    instances: urls.length,
    ...summary,
    seconds: Math.round((performance.now() - t0) / 100) / 10,
    rss_before_mb,
    rss_after_mb: pids.map(rssMb),
    baseline_slowest_plain_get_ms: baseline,
    ratio_slowest_small_to_baseline: Math.round((summary.slowest_small_ms / baseline) * 100) / 100,
  };
}

const results: unknown[] = [];
const children: ChildProcess[] = [];
const dir = tempDir('evident-jobs-fuzz-');
try {
  {
    const env = serverEnv({ EVIDENT_DATA_DIR: dir.path });
    const key = await createKey(env);
    const s = await serve(env);
    children.push(s.child);
    results.push(await fuzzMode('embedded', [s.url], [s.child.pid!], key));
    await killHard(s.child);
  }
  const pg = await probePostgres();
  const redis = await probeRedis();
  if (pg.skip || redis.skip) {
    results.push({ mode: 'postgres', missing: pg.skip || redis.skip });
  } else {
    const db = await createTempDatabase('evident_jobs_fuzz_bench');
    try {
      const env = serverEnv({ DATABASE_URL: db.url, REDIS_URL: redisUrl });
      const key = await createKey(env);
      const a = await serve(env, ['--with-worker']);
      const b = await serve(env, ['--with-worker']);
      children.push(a.child, b.child);
      results.push(await fuzzMode('postgres', [a.url, b.url], [a.child.pid!, b.child.pid!], key));
      await killHard(a.child);
      await killHard(b.child);
    } finally {
      await db.drop();
    }
  }
  console.log(
    JSON.stringify({ benchmark: `job API fuzz: ${N} seeded requests (seed ${SEED}) per mode`, results }, null, 2),
  );
} finally {
  for (const c of children) await killHard(c);
  dir.cleanup();
}
