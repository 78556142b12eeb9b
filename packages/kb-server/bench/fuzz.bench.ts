// npm run bench:fuzz (KB console): the console fuzz test's seeded requests (test/console-fuzz-cases.ts), 1,000 of
// them, against a console over a fresh SQLite base in this process: statuses, 5xx, answers not in the error
// shape, RSS before and after (this process: the console and the light client), the slowest small request, and
// as same-run baseline the slowest of as many plain GET /api/v1/health sent the same way first. Prints JSON.
import { quickstart } from '@evident/kb';
import { runFuzz, rssMb, type FuzzRequest } from '@evident/testkit';
import { startConsole } from '../src/console/server.js';
import { consoleRequests, isSmall } from '../test/console-fuzz-cases.js';
import { tempKb } from '../test/helpers.js';

const N = Number(process.env.BENCH_FUZZ_REQUESTS ?? 1000);
const SEED = Number(process.env.BENCH_FUZZ_SEED ?? 2026);
const LIMIT = 16 * 1024;
const TIMEOUT_MS = 1500;
const CONCURRENCY = 16;

const kb = tempKb('fuzz-bench.kb');
const db = await quickstart(kb.path);
try {
  await db.ingest(['BRCA1', 'gene'], ['associated_with', 'association'], ['breast cancer', 'disease'], {
    source_type: 'literature',
    source_id: 'PMID:1',
  });
  const c = await startConsole(db, {
    port: 0,
    bodyLimit: LIMIT,
    limits: { requestTimeoutMs: TIMEOUT_MS, headersTimeoutMs: TIMEOUT_MS },
  });
  try {
    const plain: FuzzRequest[] = Array.from({ length: Math.min(N, 500) }, () => ({
      why: 'plain',
      method: 'GET',
      path: '/api/v1/health',
      mayPass: true,
    }));
    const base = await runFuzz(c.url, plain, { concurrency: CONCURRENCY });
    if (base.non_conforming) throw new Error(`plain requests failed: ${base.examples.join('; ')}`);
    const rss_before_mb = rssMb();
    const t0 = performance.now();
    const { failures: _, ...summary } = await runFuzz(
      c.url,
      consoleRequests(N, SEED, { bodyLimit: LIMIT, requestTimeoutMs: TIMEOUT_MS }),
      { concurrency: CONCURRENCY, small: isSmall },
    );
    console.log(
      JSON.stringify(
        {
          benchmark: `KB console fuzz: ${N} seeded requests (seed ${SEED}), SQLite base`,
          ...summary,
          seconds: Math.round((performance.now() - t0) / 100) / 10,
          rss_before_mb,
          rss_after_mb: rssMb(),
          baseline_slowest_plain_get_ms: base.slowest_small_ms,
          ratio_slowest_small_to_baseline: Math.round((summary.slowest_small_ms / base.slowest_small_ms) * 100) / 100,
        },
        null,
        2,
      ),
    );
  } finally {
    await c.close();
  }
} finally {
  await db.close();
  kb.cleanup();
}
