// Findings 6, 9, 12 and 14: the job API (evident-jobs bin) and the bridge (evident-export through evident-jobs).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type HostileRequest,
  sendWithin,
  type ServerProcess,
  sleep,
  spawnServerProcess,
  tempDir,
} from '@evident/testkit';
import { SMALL_TD_REQUEST } from '../../packages/job-service/bench/bodies.js';
import { bin, is4xx, root, rows, timed, wanted } from './harness.js';

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
export async function jobFindings(): Promise<void> {
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
export async function killDuringDocking(): Promise<void> {
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
    // Only the dead process's folders count: the restarted server may already dock the requeued job in new ones.
    const leftAfterStart = readdirSync(j.tmp).filter((f) => leftAfterKill.includes(f));
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
      answer: `${leftAfterStart.length} of the dead process's ${leftAfterKill.length} folders left; job ${jobStatus || after?.answer.status}`,
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
