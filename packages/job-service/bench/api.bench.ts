// npm run bench: autocannon against GET /v1/jobs/{id} with auth and rate limiting on (limits raised), and
// against a bare Fastify route answering a same-sized JSON document, in the same run, in alternating rounds.
// Prints JSON.
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { tempDir } from '@evident/testkit';
import { configFromEnv } from '../src/config.js';
import { startServer } from '../src/service.js';

const duration = Number(process.env.BENCH_DURATION ?? 3);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);

/**
 * CPU time of this (the main) thread in ns, from Linux's schedstat; undefined elsewhere. Both servers run on this
 * thread and the load on a worker thread, so per request it is the server's own cost: unlike throughput, other
 * processes on a shared machine change it little.
 */
function mainThreadCpuNs(): number | undefined {
  try {
    return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]);
  } catch {
    return undefined;
  }
}

async function load(url: string, headers: Record<string, string>) {
  const cpu0 = mainThreadCpuNs();
  // Load is generated in a worker thread so it does not share the servers' event loop.
  const r = await autocannon({ url, headers, duration, connections, workers: 1 });
  const cpu1 = mainThreadCpuNs();
  if (r.non2xx || r.errors) throw new Error(`${url}: ${r.non2xx} non-2xx answers, ${r.errors} errors`);
  return {
    requests_per_sec: r.requests.average,
    server_cpu_us_per_request:
      cpu0 === undefined || cpu1 === undefined ? null : Math.round((cpu1 - cpu0) / 1000 / r.requests.total),
    latency_p50_ms: r.latency.p50,
    latency_p99_ms: r.latency.p99,
    requests: r.requests.total,
  };
}

const round2 = (x: number) => Math.round(x * 100) / 100;

/** The round with the median throughput (its latencies with it). */
function median<T extends { requests_per_sec: number }>(xs: T[]): T {
  return [...xs].sort((a, b) => a.requests_per_sec - b.requests_per_sec)[xs.length >> 1]!;
}

/** Median server CPU per request of the bare rounds over that of the API rounds; null without schedstat. */
function cpuRatio(bare: Array<{ server_cpu_us_per_request: number | null }>, api: typeof bare): number | null {
  const med = (xs: typeof bare) => {
    const v = xs.map((x) => x.server_cpu_us_per_request);
    if (v.some((x) => x === null)) return null;
    return (v as number[]).sort((a, b) => a - b)[v.length >> 1]!;
  };
  const b = med(bare);
  const a = med(api);
  return a === null || b === null ? null : Math.round((b / a) * 1000) / 1000;
}

const dir = tempDir('evident-jobs-bench-');
// The tests' demo kind is what the benchmark submits (it is not a production kind).
const demoKind = fileURLToPath(new URL('../test/demo-kind.ts', import.meta.url));
const server = await startServer(
  { ...configFromEnv({}), dataDir: dir.path, port: 0, workerThreads: 1, logLevel: 'silent', kindModules: [demoKind] },
  { logger: false },
);
const bare = Fastify({ logger: false });
try {
  const k = await server.store.createKey({ name: 'bench', plan: 'enterprise', rpm: 1_000_000_000, concurrency: 10 });
  const headers = { authorization: `Bearer ${k.key}` };
  const sub = await fetch(`${server.url}/v1/demo/run`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: '{"items":5}',
  });
  const { job_id } = (await sub.json()) as { job_id: string };
  let doc: unknown;
  for (;;) {
    doc = await (await fetch(`${server.url}/v1/jobs/${job_id}`, { headers })).json();
    if ((doc as { status: string }).status === 'completed') break;
    await new Promise((r) => setTimeout(r, 100));
  }
  bare.get('/bare/:id', async () => doc);
  const bareUrl = await bare.listen({ host: '127.0.0.1', port: 0 });

  // The machine's load is part of the figure: on a shared machine other processes take CPU from both sides.
  const loadBefore = loadavg();
  await load(`${bareUrl}/bare/${job_id}`, {}); // warm-up of both paths
  await load(`${server.url}/v1/jobs/${job_id}`, headers);
  // Alternating rounds, medians: on a shared machine the load of other processes drifts over seconds, and a
  // baseline measured once before the API would carry a different share of it.
  const bareRounds: Awaited<ReturnType<typeof load>>[] = [];
  const apiRounds: Awaited<ReturnType<typeof load>>[] = [];
  for (let i = 0; i < rounds; i++) {
    bareRounds.push(await load(`${bareUrl}/bare/${job_id}`, {}));
    apiRounds.push(await load(`${server.url}/v1/jobs/${job_id}`, headers));
  }
  const baseline = median(bareRounds);
  const api = median(apiRounds);
  console.log(
    JSON.stringify(
      {
        benchmark:
          'GET /v1/jobs/{id} (embedded SQLite, bearer auth, rate limiting on) vs bare Fastify route, same JSON',
        duration_s: duration,
        rounds,
        connections,
        round_ratios: apiRounds.map(
          (a, i) => Math.round((a.requests_per_sec / bareRounds[i]!.requests_per_sec) * 1000) / 1000,
        ),
        api,
        baseline,
        ratio_api_to_baseline: Math.round((api.requests_per_sec / baseline.requests_per_sec) * 1000) / 1000,
        // Throughput the API's CPU cost per request allows, relative to the bare route's: medians over the rounds.
        cpu_ratio_baseline_to_api: cpuRatio(bareRounds, apiRounds),
        load_average_1m: { before: round2(loadBefore[0]!), after: round2(loadavg()[0]!) },
        cpus: availableParallelism(),
      },
      null,
      2,
    ),
  );
} finally {
  await bare.close();
  await server.close();
  dir.cleanup();
}
