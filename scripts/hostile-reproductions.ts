// npm run repro:hostile: issue #37's reproductions run as a user would run them, against the built bins
// (`npm run build` first: node_modules/.bin/kb-console, evident-jobs, evident-export), each on a fresh base or data
// folder in a temp dir, 127.0.0.1, a free port. For every reproduction it prints the answer (status and error code,
// or exit code), the time, and whether a small request (GET /api/v1/health on the console, GET /healthz on the job
// API, sent every 50 ms meanwhile) kept being answered: how many, and the slowest. A row is ok when the answer is
// the expected one (a 4xx in the error shape, or a success with valid JSON where the issue allows it), within its
// budget, and every small request was answered within 1 s. Prints a table, then the rows as JSON.
//
// Not here (their hostile benches run them under load, with RSS): 4 (topology on 30,000 entities, search and
// what-if bursts: kb-server bench:hostile), 7 (job API RSS after the fuzz and after one job of each kind) and 8
// (7.9M keys, the escaped 95 MB matrix: job-service bench:hostile).
//
// 13 needs a name that resolves to 0.0.0.0; this machine has no DNS and no such name in /etc/hosts, so the
// console is started with a resolver stub (a --import preload that answers dns.lookup for *.evil.test with
// 0.0.0.0; everything else goes to the system resolver). REPRO_ONLY=1,2,... runs only those findings.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type Exchange,
  type HostileRequest,
  type ServerProcess,
  sendWithin,
  shapeProblem,
  sleep,
  spawnServerProcess,
  startProber,
  tempDir,
} from '@evident/testkit';
import { SMALL_TD_REQUEST } from '../packages/job-service/bench/bodies.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name: string) => join(root, 'node_modules', '.bin', name);
const only = (process.env.REPRO_ONLY ?? '').split(',').filter(Boolean).map(Number);
const wanted = (finding: number) => !only.length || only.includes(finding);
const log = (l: string) => process.stderr.write(`${l}\n`);

interface Row {
  finding: number;
  what: string;
  answer: string;
  ms: number;
  budget_ms: number | null;
  others: string;
  ok: boolean;
  note?: string;
}
const rows: Row[] = [];

const codeOf = (x: Exchange) => {
  try {
    return (JSON.parse(x.answer.text) as { error?: { code?: string } }).error?.code ?? '';
  } catch {
    return '';
  }
};

/**
 * Sends `req` while the server's small request is sent every 50 ms, and records a row. `expect`: the statuses that
 * are right (a success must parse as JSON); `budgetMs`: the answer must come within it.
 */
async function timed(
  server: ServerProcess,
  small: HostileRequest,
  finding: number,
  what: string,
  req: HostileRequest,
  expect: (status: number) => boolean,
  budgetMs: number,
): Promise<Exchange> {
  const prober = startProber(server.url, small, 50, 60_000);
  const x = await sendWithin(server.url, req, Math.max(budgetMs * 3, 60_000));
  const probes = await prober.stop();
  const shape = shapeProblem({ ...x, req: { ...req, mayPass: true } });
  const answered = probes.probes - probes.unanswered;
  const ok =
    !x.timedOut &&
    expect(x.answer.status) &&
    !shape &&
    x.answer.ms <= budgetMs &&
    probes.unanswered === 0 &&
    probes.slowest_ms < 1000 &&
    server.alive();
  rows.push({
    finding,
    what,
    answer: x.timedOut ? 'no answer' : `${x.answer.status} ${codeOf(x)}`.trim(),
    ms: Math.round(x.answer.ms),
    budget_ms: budgetMs,
    others: `${answered}/${probes.probes} answered, slowest ${probes.slowest_ms} ms`,
    ok,
    ...(shape ? { note: shape } : {}),
    ...(server.alive() ? {} : { note: 'the server died' }),
  });
  log(`${finding} ${what}: ${rows.at(-1)!.answer} in ${rows.at(-1)!.ms} ms (${rows.at(-1)!.others})`);
  return x;
}

const is4xx = (s: number) => s >= 400 && s < 500;
const isOkOr4xx = (s: number) => s === 200 || is4xx(s);

function startConsole(db: string, extraArgs: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<ServerProcess> {
  return spawnServerProcess({
    name: 'kb-console',
    args: [bin('kb-console'), '--db', db, '--port', '0', '--host', '127.0.0.1', ...extraArgs],
    env: { KB_CONSOLE_TOKEN: '', ...env },
    ready: /at (http:\/\/127\.0\.0\.1:\d+)\//,
  });
}

const CONSOLE_SMALL: HostileRequest = { why: 'small', method: 'GET', path: '/api/v1/health', mayPass: true };
const cypher = (cypherText: string, extra: Record<string, unknown> = {}): HostileRequest => ({
  why: 'cypher',
  method: 'POST',
  path: '/api/v1/query',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ cypher: cypherText, ...extra }),
  mayPass: true,
});
const claim = (a: string, b: string) => ({
  subject: [a, 'gene'],
  predicate: ['interacts_with', 'molecular'],
  object: [b, 'gene'],
  source_type: 'experiment',
  source_id: 'repro:1',
});
const postJson = (path: string, body: unknown): HostileRequest => ({
  why: path,
  method: 'POST',
  path,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
  mayPass: true,
});

/** Findings 1, 2, 3, 5, 10, 11: the KB console on a base of a few claims. */
async function consoleFindings(): Promise<void> {
  if (![1, 2, 3, 5, 10, 11].some(wanted)) return;
  const dir = tempDir('evident-repro-kb-');
  const db = join(dir.path, 'kb.sqlite');
  const server = await startConsole(db);
  try {
    const seeded = await sendWithin(
      server.url,
      postJson('/api/v1/claims/batch', { claims: [claim('RG1', 'RG2'), claim('RG2', 'RG3'), claim('RG3', 'RG1')] }),
      60_000,
    );
    if (seeded.answer.status !== 200)
      throw new Error(`seeding answered ${seeded.answer.status}: ${seeded.answer.text}`);
    // A console in use: its query thread and text-extraction child are started (the first call pays for them).
    await sendWithin(server.url, cypher('RETURN 1 AS x'), 60_000);
    await sendWithin(
      server.url,
      postJson('/api/v1/claims/text', { text: 'RG1 binds RG2.', source_id: 'repro:w' }),
      60_000,
    );
    const DEFAULT_TIMEOUT = 30_000;
    if (wanted(1)) {
      const q = 'UNWIND range(1,1000000000) AS x RETURN count(x)';
      await timed(server, CONSOLE_SMALL, 1, `${q}, timeout_ms 2000`, cypher(q, { timeout_ms: 2000 }), is4xx, 3000);
      await timed(
        server,
        CONSOLE_SMALL,
        1,
        'RETURN range(1,1e8)',
        cypher('RETURN range(1,1e8)'),
        is4xx,
        DEFAULT_TIMEOUT,
      );
      await timed(
        server,
        CONSOLE_SMALL,
        1,
        'RETURN [x IN range(1,100000000) | x * 2]',
        cypher('RETURN [x IN range(1,100000000) | x * 2] AS xs'),
        is4xx,
        DEFAULT_TIMEOUT,
      );
      await timed(
        server,
        CONSOLE_SMALL,
        1,
        'UNWIND range(1,50000000) AS x RETURN collect(x)',
        cypher('UNWIND range(1,50000000) AS x RETURN collect(x) AS xs'),
        is4xx,
        DEFAULT_TIMEOUT,
      );
    }
    if (wanted(2)) {
      const q = "RETURN 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!' =~ '(a+)+$'";
      await timed(server, CONSOLE_SMALL, 2, `${q}, timeout_ms 2000`, cypher(q, { timeout_ms: 2000 }), isOkOr4xx, 3000);
    }
    if (wanted(3)) {
      await timed(
        server,
        CONSOLE_SMALL,
        3,
        'UNWIND range(1,2000) AS a UNWIND range(1,2000) AS b RETURN a, b, max_rows 100000',
        cypher('UNWIND range(1,2000) AS a UNWIND range(1,2000) AS b RETURN a, b', { max_rows: 100_000 }),
        is4xx,
        DEFAULT_TIMEOUT,
      );
      await timed(
        server,
        CONSOLE_SMALL,
        3,
        'RETURN ((((…1…)))) nested 9,990 deep',
        cypher(`RETURN ${'('.repeat(9990)}1${')'.repeat(9990)} AS x`),
        (s) => s === 400,
        DEFAULT_TIMEOUT,
      );
    }
    if (wanted(11)) {
      await timed(server, CONSOLE_SMALL, 11, 'RETURN $toString AS x', cypher('RETURN $toString AS x'), isOkOr4xx, 5000);
      await timed(
        server,
        CONSOLE_SMALL,
        11,
        'MATCH (n) RETURN n.constructor',
        cypher('MATCH (n) RETURN n.constructor'),
        isOkOr4xx,
        5000,
      );
    }
    if (wanted(5)) await ingestText(server);
    if (wanted(10)) await waitForVectors(server);
  } finally {
    await server.stop();
    // The vectors are saved when the base closes.
    if (wanted(10)) fileModes(dir.path, db);
    dir.cleanup();
  }
}

/**
 * Finding 5: POST /claims/text of `aZ9-_.` repeated, 125k and 1M characters (the console's text limit is 1M; the
 * issue's 1.6M went through the library); linear means 8x.
 */
async function ingestText(server: ServerProcess): Promise<void> {
  const times: number[] = [];
  for (const chars of [125_000, 1_000_000]) {
    const text = 'aZ9-_.'.repeat(Math.ceil(chars / 6)).slice(0, chars);
    const x = await timed(
      server,
      CONSOLE_SMALL,
      5,
      `ingestText of ${chars.toLocaleString('en')} characters of aZ9-_.`,
      postJson('/api/v1/claims/text', { text, source_id: `repro:text${chars}` }),
      isOkOr4xx,
      30_000,
    );
    times.push(x.answer.ms);
  }
  const ratio = times[1]! / Math.max(1, times[0]!);
  rows.push({
    finding: 5,
    what: 'ingestText time 1M / 125k characters (linear: 8)',
    answer: ratio.toFixed(1),
    ms: Math.round(times[1]!),
    budget_ms: null,
    others: '',
    // Fixed costs (a request, parsing) flatten the ratio; the issue's super-linear growth was 25x for 8x the text.
    ok: ratio <= 12,
  });
}

async function waitForVectors(server: ServerProcess): Promise<void> {
  for (let waited = 0; waited < 120; waited++) {
    const x = await sendWithin(
      server.url,
      { why: 'pending', method: 'GET', path: '/api/v1/search?query=RG1&k=1' },
      30_000,
    );
    if (x.answer.status === 200 && (JSON.parse(x.answer.text) as { pending?: number }).pending === 0) break;
    await sleep(1000);
  }
}

/** Finding 10: every file the base wrote is 0600, every folder 0700 (after writes, their vectors and a close). */
function fileModes(dir: string, db: string): void {
  const base = db.split('/').pop()!;
  const bad: string[] = [];
  const seen: string[] = [];
  const walk = (p: string) => {
    const st = statSync(p);
    const mode = (st.mode & 0o777).toString(8).padStart(4, '0');
    const want = st.isDirectory() ? '0700' : '0600';
    seen.push(`${p.slice(dir.length + 1)} ${mode}`);
    if (mode !== want) bad.push(`${p.slice(dir.length + 1)} ${mode}`);
    if (st.isDirectory()) for (const e of readdirSync(p)) walk(join(p, e));
  };
  for (const e of readdirSync(dir)) if (e.startsWith(base)) walk(join(dir, e));
  rows.push({
    finding: 10,
    what: `modes of the base's files and folders (${seen.length} entries)`,
    answer: bad.length ? `not private: ${bad.slice(0, 4).join(', ')}` : 'files 0600, folders 0700',
    ms: 0,
    budget_ms: null,
    others: '',
    ok: bad.length === 0 && seen.some((s) => s.includes('.vectors')),
    note: seen.join('; ').slice(0, 300),
  });
}

/** Finding 13: --host 127.evil.test (resolving to 0.0.0.0 through the stub) without a token. */
async function loopbackName(): Promise<void> {
  if (!wanted(13)) return;
  const dir = tempDir('evident-repro-host-');
  try {
    const stub = join(dir.path, 'resolver-stub.mjs');
    writeFileSync(
      stub,
      [
        "import dns from 'node:dns';",
        "import { syncBuiltinESMExports } from 'node:module';",
        'const real = dns.lookup;',
        "const fake = (h) => typeof h === 'string' && h.endsWith('.evil.test');",
        'dns.lookup = function (host, options, cb) {',
        "  if (typeof options === 'function') { cb = options; options = {}; }",
        '  if (!fake(host)) return real.call(dns, host, options ?? {}, cb);',
        "  const a = { address: '0.0.0.0', family: 4 };",
        '  process.nextTick(() => (options?.all ? cb(null, [a]) : cb(null, a.address, 4)));',
        '};',
        'const realP = dns.promises.lookup;',
        'dns.promises.lookup = async (host, options) =>',
        "  fake(host) ? (options?.all ? [{ address: '0.0.0.0', family: 4 }] : { address: '0.0.0.0', family: 4 }) : realP(host, options);",
        'syncBuiltinESMExports();',
      ].join('\n'),
    );
    const t0 = performance.now();
    const run = spawnSync(
      process.execPath,
      [
        '--import',
        stub,
        bin('kb-console'),
        '--db',
        join(dir.path, 'kb.sqlite'),
        '--port',
        '0',
        '--host',
        '127.evil.test',
      ],
      { env: { ...process.env, KB_CONSOLE_TOKEN: '' }, encoding: 'utf8', timeout: 60_000 },
    );
    const ms = performance.now() - t0;
    const said = `${run.stderr}${run.stdout}`;
    const listened = /listening|at http:\/\//.test(said) && run.status === null;
    rows.push({
      finding: 13,
      what: 'kb-console --host 127.evil.test (-> 0.0.0.0 by a resolver stub), no token',
      answer: run.status === null ? `still running after 60 s (${run.signal})` : `exit ${run.status}`,
      ms: Math.round(ms),
      budget_ms: null,
      others: '',
      ok: run.status !== null && run.status !== 0 && /refusing to listen/.test(said) && !listened,
      note:
        said
          .split('\n')
          .find((l) => /refus/.test(l))
          ?.slice(0, 200) ?? said.slice(0, 200),
    });
  } finally {
    dir.cleanup();
  }
}

interface Jobs {
  server: ServerProcess;
  key: string;
  dir: string;
  env: NodeJS.ProcessEnv;
  tmp: string;
}

const CLOSED = 'http://127.0.0.1:9';

function jobsEnv(dir: string, tmp: string): NodeJS.ProcessEnv {
  return {
    EVIDENT_DATA_DIR: dir,
    DATABASE_URL: '',
    REDIS_URL: '',
    EVIDENT_JOB_KIND_MODULES: '',
    EVIDENT_RCSB_SEARCH_URL: CLOSED,
    EVIDENT_RCSB_FILES_URL: CLOSED,
    EVIDENT_ALPHAFOLD_API_URL: CLOSED,
    EVIDENT_ALPHAFOLD_FILES_URL: CLOSED,
    TMPDIR: tmp,
  };
}

const startJobs = (dir: string, env: NodeJS.ProcessEnv) =>
  spawnServerProcess({
    name: 'evident-jobs',
    args: [bin('evident-jobs'), 'serve', '--data-dir', dir, '--port', '0', '--host', '127.0.0.1'],
    env,
    ready: /"url":"(http:\/\/127\.0\.0\.1:\d+)"/,
  });

async function openJobs(dir: string): Promise<Jobs> {
  const tmp = join(dir, 'tmp');
  mkdirSync(tmp, { recursive: true });
  const env = jobsEnv(dir, tmp);
  const made = spawnSync(
    bin('evident-jobs'),
    [
      'keys',
      'create',
      '--data-dir',
      dir,
      '--plan',
      'enterprise',
      '--name',
      'repro',
      '--rpm',
      '100000',
      '--concurrency',
      '4',
    ],
    { env: { ...process.env, ...env }, encoding: 'utf8' },
  );
  if (made.status !== 0) throw new Error(`keys create failed: ${made.stderr}`);
  const key = (JSON.parse(made.stdout.trim().split('\n').pop()!) as { key: string }).key;
  return { server: await startJobs(dir, env), key, dir, env, tmp };
}

const JOBS_SMALL: HostileRequest = { why: 'small', method: 'GET', path: '/healthz', mayPass: true };

async function waitJob(j: Jobs, id: string, timeoutMs: number): Promise<string> {
  const until = performance.now() + timeoutMs;
  for (;;) {
    const x = await sendWithin(
      j.server.url,
      { why: 'status', method: 'GET', path: `/v1/jobs/${id}`, headers: { authorization: `Bearer ${j.key}` } },
      30_000,
    );
    const status = x.answer.status === 200 ? (JSON.parse(x.answer.text) as { status: string }).status : '';
    if (['completed', 'failed', 'cancelled'].includes(status) || performance.now() > until) return status;
    await sleep(500);
  }
}

const submit = (j: Jobs, path: string, body: unknown): HostileRequest => ({
  why: 'submit',
  method: 'POST',
  path,
  headers: { authorization: `Bearer ${j.key}`, 'content-type': 'application/json' },
  body: typeof body === 'string' ? body : JSON.stringify(body),
  mayPass: true,
});

/** Findings 6, 12 and 14 on one job server. */
async function jobFindings(): Promise<void> {
  if (![6, 12, 14].some(wanted)) return;
  const dir = tempDir('evident-repro-jobs-');
  const j = await openJobs(dir.path);
  try {
    if (wanted(6)) {
      const MiB = 1024 * 1024;
      const arrays = '['.repeat((MiB - 64) / 2) + ']'.repeat((MiB - 64) / 2);
      const objects = `${'{"a":'.repeat(Math.floor((MiB - 64) / 6))}1${'}'.repeat(Math.floor((MiB - 64) / 6))}`;
      const td = '/v1/targets/discover';
      const as400 = (s: number) => s === 400;
      await timed(
        j.server,
        JOBS_SMALL,
        6,
        'nested arrays under 1 MiB, known route',
        submit(j, td, arrays),
        as400,
        5000,
      );
      await timed(
        j.server,
        JOBS_SMALL,
        6,
        'nested objects under 1 MiB, known route',
        submit(j, td, objects),
        as400,
        5000,
      );
      await timed(
        j.server,
        JOBS_SMALL,
        6,
        'nested arrays under 1 MiB, unknown route',
        submit(j, '/v1/nope', arrays),
        is4xx,
        5000,
      );
      await timed(
        j.server,
        JOBS_SMALL,
        6,
        'nested arrays under 1 MiB, no key',
        { ...submit(j, td, arrays), headers: { 'content-type': 'application/json' } },
        is4xx,
        5000,
      );
    }
    if (wanted(14)) {
      await timed(
        j.server,
        JOBS_SMALL,
        14,
        "POST /v1/compounds/generate with pdb_id 'pdb_00002src' (README's form; sources closed)",
        submit(j, '/v1/compounds/generate', {
          target_uniprot: 'P12931',
          pdb_id: 'pdb_00002src',
          binding_site: { residues: ['K297', 'T340', 'M343'] },
          num_molecules: 3,
        }),
        (s) => s === 202,
        // The request's stated budget: its check runs on a prepare thread under EVIDENT_REQUEST_TASK_TIMEOUT_MS.
        30_000,
      );
    }
    if (wanted(12)) await exportBridge(j);
  } finally {
    await j.server.stop();
    dir.cleanup();
  }
}

/** Finding 12: evident-jobs export from another folder; a planted ./node_modules/.bin/evident-export; bad --kb. */
async function exportBridge(j: Jobs): Promise<void> {
  const sub = await sendWithin(j.server.url, submit(j, '/v1/targets/discover', SMALL_TD_REQUEST), 60_000);
  const id = sub.answer.status === 202 ? (JSON.parse(sub.answer.text) as { job_id: string }).job_id : '';
  const status = id ? await waitJob(j, id, 600_000) : `not accepted (${sub.answer.status})`;
  const elsewhere = join(j.dir, 'elsewhere');
  const planted = join(elsewhere, 'node_modules', '.bin');
  mkdirSync(planted, { recursive: true });
  const marker = join(elsewhere, 'PLANTED-RAN');
  writeFileSync(join(planted, 'evident-export'), `#!/bin/sh\ntouch ${marker}\n`, { mode: 0o755 });
  const store = readdirSync(j.dir).find((f) => f.endsWith('.sqlite')) ?? 'evident-jobs.sqlite';
  const storePath = join(j.dir, store);
  const storeBefore = statSync(storePath);
  const run = (kb: string) => {
    const t0 = performance.now();
    const r = spawnSync(
      bin('evident-jobs'),
      ['export', id || 'td_missing', '--kb', kb, '--url', j.server.url, '--api-key', j.key],
      { cwd: elsewhere, env: { ...process.env, ...j.env }, encoding: 'utf8', timeout: 300_000 },
    );
    return { ...r, ms: Math.round(performance.now() - t0), said: `${r.stderr}${r.stdout}`.trim() };
  };
  const good = run('kb.sqlite');
  rows.push({
    finding: 12,
    what: `evident-jobs export (job ${status}) --kb kb.sqlite, run from another folder with a planted ./node_modules/.bin/evident-export`,
    answer: `exit ${good.status}`,
    ms: good.ms,
    budget_ms: null,
    others: '',
    ok: good.status === 0 && existsSync(join(elsewhere, 'kb.sqlite')) && !existsSync(marker),
    note: `${existsSync(marker) ? 'the planted program ran; ' : ''}${good.said.split('\n').pop()?.slice(0, 160)}`,
  });
  const passwd = run('file:///etc/passwd');
  const made = readdirSync(elsewhere).filter((f) => f.startsWith('file:'));
  rows.push({
    finding: 12,
    what: 'evident-jobs export --kb file:///etc/passwd',
    answer: `exit ${passwd.status}`,
    ms: passwd.ms,
    budget_ms: null,
    others: '',
    ok: passwd.status !== 0 && made.length === 0,
    note: `${made.length ? `created ./${made[0]}; ` : ''}${passwd.said.split('\n').pop()?.slice(0, 160)}`,
  });
  const intoStore = run(storePath);
  const storeAfter = statSync(storePath);
  rows.push({
    finding: 12,
    what: `evident-jobs export --kb <data dir>/${store} (the job store, not a KB)`,
    answer: `exit ${intoStore.status}`,
    ms: intoStore.ms,
    budget_ms: null,
    others: '',
    ok: intoStore.status !== 0 && storeAfter.size === storeBefore.size,
    note: intoStore.said.split('\n').pop()?.slice(0, 160),
  });
}

/** The processes whose working folder is inside `folder` (Vina and Open Babel run in their session's folder). */
function processesIn(folder: string): number[] {
  const out: number[] = [];
  for (const p of readdirSync('/proc')) {
    if (!/^\d+$/.test(p)) continue;
    try {
      if (readlinkSync(`/proc/${p}/cwd`).startsWith(folder)) out.push(Number(p));
    } catch {
      // gone, or not ours to read
    }
  }
  return out;
}

const alive = (pid: number) => {
  try {
    return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

/** Finding 9: kill -9 of the job server while a compound-generation job docks; then a restart. */
async function killDuringDocking(): Promise<void> {
  if (!wanted(9)) return;
  const dir = tempDir('evident-repro-dock-');
  let j = await openJobs(dir.path);
  try {
    const structure = readFileSync(join(root, 'packages/protein-structure/test/fixtures/2src.pdb')).toString('base64');
    const sub = await sendWithin(
      j.server.url,
      submit(j, '/v1/compounds/generate', {
        target_uniprot: 'P12931',
        binding_site: { residues: ['K297', 'T340', 'M343'] },
        structure,
        num_molecules: 3,
        options: { seed: 5, max_evaluations: 300, population_size: 30, docking_exhaustiveness: 8, docking_budget: 50 },
      }),
      60_000,
    );
    const id = sub.answer.status === 202 ? (JSON.parse(sub.answer.text) as { job_id: string }).job_id : '';
    let folders: string[] = [];
    let tools: number[] = [];
    const t0 = performance.now();
    while (id && performance.now() - t0 < 600_000) {
      folders = readdirSync(j.tmp).filter((f) => f.startsWith('evident-docking-'));
      tools = folders.flatMap((f) => processesIn(join(j.tmp, f)));
      if (folders.length && tools.length) break;
      await sleep(200);
    }
    const waited = Math.round(performance.now() - t0);
    const pid = j.server.pid;
    process.kill(pid, 'SIGKILL');
    await j.server.exit(10_000);
    await sleep(3000);
    const orphans = tools.filter(alive);
    const leftAfterKill = readdirSync(j.tmp).filter((f) => f.startsWith('evident-docking-'));
    rows.push({
      finding: 9,
      what: `kill -9 of evident-jobs serve while job ${id || '(not accepted)'} docks (${tools.length} tool processes in ${folders.length} session folders, after ${waited} ms)`,
      answer: orphans.length ? `${orphans.length} tool processes still running 3 s later` : 'no tool process left',
      ms: 0,
      budget_ms: null,
      others: '',
      ok: tools.length > 0 && orphans.length === 0,
      note: `folders left: ${leftAfterKill.length}`,
    });
    const t1 = performance.now();
    j = { ...j, server: await startJobs(j.dir, j.env) };
    await sleep(3000);
    const leftAfterStart = readdirSync(j.tmp).filter((f) => f.startsWith('evident-docking-'));
    const after = id
      ? await sendWithin(
          j.server.url,
          { why: 'status', method: 'GET', path: `/v1/jobs/${id}`, headers: { authorization: `Bearer ${j.key}` } },
          30_000,
        )
      : undefined;
    const jobStatus = after?.answer.status === 200 ? (JSON.parse(after.answer.text) as { status: string }).status : '';
    rows.push({
      finding: 9,
      what: "evident-jobs serve started again: the dead process's docking folders, and the job",
      answer: `${leftAfterStart.length} folders left; job ${jobStatus || after?.answer.status}`,
      ms: Math.round(performance.now() - t1),
      budget_ms: null,
      others: '',
      ok: leftAfterStart.length === 0 && jobStatus !== '',
    });
  } finally {
    await j.server.stop();
    dir.cleanup();
  }
}

const started = performance.now();
await consoleFindings();
await loopbackName();
await jobFindings();
await killDuringDocking();

const pad = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s.padEnd(n));
console.log(
  `${pad('#', 3)} ${pad('reproduction', 70)} ${pad('answer', 34)} ${pad('ms', 7)} ${pad('budget', 7)} ${pad('small requests meanwhile', 34)} ok`,
);
for (const r of rows) {
  console.log(
    `${pad(String(r.finding), 3)} ${pad(r.what, 70)} ${pad(r.answer, 34)} ${pad(String(r.ms), 7)} ${pad(String(r.budget_ms ?? ''), 7)} ${pad(r.others, 34)} ${r.ok ? 'ok' : 'FAIL'}`,
  );
}
console.log(
  JSON.stringify(
    {
      reproductions: 'issue #37, against the built bins',
      seconds: Math.round((performance.now() - started) / 1000),
      ok: rows.filter((r) => r.ok).length,
      failed: rows.filter((r) => !r.ok).length,
      rows,
    },
    null,
    2,
  ),
);
process.exitCode = rows.every((r) => r.ok) ? 0 : 1;
