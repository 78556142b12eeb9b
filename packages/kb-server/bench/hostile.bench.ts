// npm run bench:hostile (KB console; also part of bench:fuzz): issue #37's hostile load against the built
// `kb-console` bin (`tsc -b` first), started as a user would (node with what the bin's #! line sets, a fresh
// SQLite base in a temp folder, 127.0.0.1, a free port, no token). The base is first given a graph of
// HOSTILE_ENTITIES genes (default 30,000; the topology cases need it) through POST /claims/batch. Baseline:
// GET /api/v1/health on the quiet server. Then each case of bench/hostile-cases.ts while a prober in a process of
// its own (testkit's startProcessProber: this process parses the cases' answers) sends GET /api/v1/health every
// 50 ms; then 60 s of quiet and the console's RSS (VmRSS, /proc). Prints JSON: per case its statuses, 5xx, answers out of the error shape,
// unanswered requests and slowest probe, and the goals (0 5xx, 0 out of shape, 0 unanswered, RSS < 300 MB,
// slowest probe < 1 s) each met or not.
//
// For development: HOSTILE_SCALE (default 1) shrinks every size, HOSTILE_SETTLE_S (60) the quiet wait,
// HOSTILE_BASELINE_N (100) the baseline, HOSTILE_TIMEOUT_MS (150000) a request's deadline, HOSTILE_CASES a
// comma-separated list of words: only the cases whose name contains one of them run. HOSTILE_NODE_FLAGS: flags for
// the console's node (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`), to look into a figure.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  envNumber,
  type HostileRequest,
  runHostileBench,
  sleep,
  spawnServerProcess,
  startProcessProber,
  tempDir,
} from '@evident/testkit';
import { clusteredClaims, consoleCases, post } from './hostile-cases.js';
import { shebangLaunch } from './shebang.js';

const scale = envNumber('HOSTILE_SCALE', 1);
const entities = Math.round(envNumber('HOSTILE_ENTITIES', 30_000) * scale);
const only = (process.env.HOSTILE_CASES ?? '')
  .split(',')
  .map((w) => w.trim().toLowerCase())
  .filter(Boolean);
const nodeFlags = (process.env.HOSTILE_NODE_FLAGS ?? '').split(' ').filter(Boolean);
const bin = fileURLToPath(new URL('../dist/src/bin/kb-console.js', import.meta.url));
// What the bin's #! line sets (glibc's malloc settings, node flags), as running `kb-console` would.
const launch = shebangLaunch(bin);
const log = (l: string) => process.stderr.write(`${l}\n`);

const dir = tempDir('evident-kb-hostile-');
const db = join(dir.path, 'kb.sqlite');
const probe: HostileRequest = { why: 'probe', method: 'GET', path: '/api/v1/health', mayPass: true };
let stats: unknown;
try {
  const cases = consoleCases({ scale, entities }).filter(
    (c) => !only.length || only.some((w) => c.name.toLowerCase().includes(w)),
  );
  const report = await runHostileBench({
    start: () =>
      spawnServerProcess({
        name: 'kb-console',
        args: [...launch.nodeFlags, ...nodeFlags, bin, '--db', db, '--port', '0', '--host', '127.0.0.1'],
        // A token in the caller's environment would make every request a 401.
        env: { ...launch.env, KB_CONSOLE_TOKEN: '' },
        ready: /at (http:\/\/127\.0\.0\.1:\d+)\//,
      }),
    probe,
    prober: startProcessProber,
    cases,
    baselineN: envNumber('HOSTILE_BASELINE_N', 100),
    timeoutMs: envNumber('HOSTILE_TIMEOUT_MS', 150_000),
    settleMs: envNumber('HOSTILE_SETTLE_S', 60) * 1000,
    log,
    async prepare(c) {
      const claims = clusteredClaims(entities);
      const t0 = performance.now();
      for (let i = 0; i < claims.length; i += 5000) {
        const x = await c.send(post('ingest', '/claims/batch', { claims: claims.slice(i, i + 5000) }));
        if (x.answer.status !== 200)
          throw new Error(`ingest answered ${x.answer.status}: ${x.answer.text.slice(0, 300)}`);
      }
      log(`kb-console: ${claims.length} claims ingested in ${Math.round((performance.now() - t0) / 1000)} s`);
      // Vectors are computed in the background after a write: the baseline waits until none are pending.
      for (let waited = 0; waited < 900; waited += 2) {
        const x = await c.send({ why: 'pending', method: 'GET', path: '/api/v1/search?query=gene&k=1' });
        if (x.answer.status === 200 && JSON.parse(x.answer.text).pending === 0) break;
        await sleep(2000);
      }
      const st = await c.send({ why: 'stats', method: 'GET', path: '/api/v1/stats' });
      const body = JSON.parse(st.answer.text) as { entity_count?: number; claim_count?: number };
      stats = { entities: body.entity_count, claims: body.claim_count };
    },
  });
  console.log(
    JSON.stringify(
      {
        benchmark: `KB console hostile load (issue #37), scale ${scale}`,
        base: stats,
        // How the console was started: RSS after the cases depends on malloc's settings.
        console_launch: {
          env: Object.fromEntries(
            Object.entries({ ...process.env, ...launch.env }).filter(([k]) => /^(MALLOC_|GLIBC_TUNABLES$)/.test(k)),
          ),
          node_flags: [...launch.nodeFlags, ...nodeFlags],
        },
        ...report,
      },
      null,
      2,
    ),
  );
} finally {
  dir.cleanup();
}
