// npm run bench:soak: large bodies against a real `evident-jobs serve` (embedded mode, built, its own process, so
// its RSS is the server's alone). RSS before; a burst of 50 MB valid target-discovery submissions and 95 MB invalid bodies
// (a JSON array, as the hardening probe sent), a few at once, while a small submission is timed every 250 ms; the
// peak RSS (the kernel's high-water mark) and the RSS 60 s after. Same-run baseline: the same small submission
// with no big body in flight. Prints JSON.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { tempDir } from '@evident/testkit';
import { SMALL_TD_REQUEST, tdMatrixRequest } from './bodies.js';

// The server runs as in production, from the build (`npm run bench:soak` runs tsc -b first): from the sources,
// tsx would add its own tens of MB to every thread.
const cli = fileURLToPath(new URL('../dist/src/cli/main.js', import.meta.url));
const settleSeconds = Number(process.env.BENCH_SETTLE_S ?? 60);
const validMb = Number(process.env.BENCH_VALID_MB ?? 50);
const invalidMb = Number(process.env.BENCH_INVALID_MB ?? 95);
const rounds = Number(process.env.BENCH_ROUNDS ?? 2);

// BENCH_NODE_FLAGS: flags for the server's node (e.g. --cpu-prof), to look into a figure.
const flags = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);
const node = (args: string[]) => [process.execPath, [...flags, cli, ...args]] as const;

/** VmRSS and VmHWM (peak) of a process, MB, from /proc. */
function memory(pid: number): { rss_mb: number; peak_mb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { rss_mb: Math.round(kb('VmRSS') / 1024), peak_mb: Math.round(kb('VmHWM') / 1024) };
}

interface Answer {
  status: number;
  ms: number;
  text: string;
}

function post(url: string, path: string, key: string, body: Buffer): Promise<Answer> {
  const u = new URL(url + path);
  const t0 = performance.now();
  return new Promise((resolve) => {
    const q = request(
      {
        host: u.hostname,
        port: u.port,
        method: 'POST',
        path: u.pathname,
        // A connection per request: the server closes one whose body it refused before reading it all.
        agent: false,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': body.length },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (text += d.length < 2000 ? d : ''));
        res.on('end', () => resolve({ status: res.statusCode!, ms: performance.now() - t0, text: text.slice(0, 300) }));
      },
    );
    q.on('error', (e) => resolve({ status: -1, ms: performance.now() - t0, text: e.message }));
    q.end(body);
  });
}

const del = (url: string, path: string, key: string) =>
  fetch(url + path, { method: 'DELETE', headers: { authorization: `Bearer ${key}`, connection: 'close' } }).then(
    (r) => r.status,
  );

const stats = (ms: number[]) => {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q: number) => Math.round(s[Math.min(s.length - 1, Math.floor(q * s.length))]! * 10) / 10;
  return { n: s.length, p50_ms: at(0.5), p90_ms: at(0.9), max_ms: Math.round(s[s.length - 1]! * 10) / 10 };
};

const dir = tempDir('evident-jobs-soak-');
// A 50 MB matrix takes its thread seconds to decode and check, more on a shared machine: the deadline of a
// request's thread task is raised so that the soak measures memory and waiting, not this machine's load.
const env = {
  ...process.env,
  EVIDENT_LOG_LEVEL: 'warn',
  EVIDENT_DATA_DIR: dir.path,
  EVIDENT_REQUEST_TASK_TIMEOUT_MS: '300000',
};
const made = spawnSync(
  ...node(['keys', 'create', '--plan', 'enterprise', '--name', 'soak', '--rpm', '1000000', '--concurrency', '50']),
  { env, encoding: 'utf8' },
);
if (made.status !== 0) throw new Error(`keys create failed: ${made.stderr}`);
const key = (JSON.parse(made.stdout.trim().split('\n').pop()!) as { key: string }).key;
const server = spawn(...node(['serve', '--port', '0', '--threads', '1']), { env });
let serverErr = '';
server.stderr.on('data', (d) => (serverErr += d));
try {
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    server.stdout.on('data', (d) => {
      out += d;
      const m = /"url":"([^"]+)"/.exec(out);
      if (m) resolve(m[1]!);
    });
    server.on('exit', (c) => reject(new Error(`server exited (${c}): ${serverErr}`)));
  });
  const pid = server.pid!;
  const small = Buffer.from(JSON.stringify(SMALL_TD_REQUEST));
  // Each small job is cancelled once accepted: the soak times the submission, and the runs would only add load.
  const smallOnce = async () => {
    const a = await post(url, '/v1/targets/discover', key, small);
    if (a.status !== 202) throw new Error(`small submission answered ${a.status}: ${a.text}`);
    await del(url, `/v1/jobs/${JSON.parse(a.text).job_id}`, key);
    return a.ms;
  };
  // Warm-up (threads loaded, routes compiled), then the baseline: nothing big in flight.
  for (let i = 0; i < 5; i++) await smallOnce();
  const baseline: number[] = [];
  for (let i = 0; i < 30; i++) {
    baseline.push(await smallOnce());
    await new Promise((r) => setTimeout(r, 100));
  }
  const before = memory(pid);

  const valid = Buffer.from(JSON.stringify(tdMatrixRequest(validMb * 1024 * 1024)));
  // The probe's body: one JSON array of numbers, refused with 400 (the route takes an object).
  const invalid = Buffer.alloc(Math.round(invalidMb * 1024 * 1024), '0,');
  invalid[0] = 0x5b; // [
  invalid[invalid.length - 1] = 0x5d; // ]
  const t0 = performance.now();
  const during: number[] = [];
  let inFlight = true;
  const timing = (async () => {
    while (inFlight) {
      during.push(await smallOnce());
      await new Promise((r) => setTimeout(r, 250));
    }
  })();
  // Its failure is reported after the burst, with the server's stderr.
  timing.catch(() => {});
  const big: Array<{ kind: string; mb: number; status: number; ms: number }> = [];
  for (let round = 0; round < rounds; round++) {
    // A few at once: two valid and two invalid bodies per round.
    const answers = await Promise.all([
      post(url, '/v1/targets/discover', key, valid),
      post(url, '/v1/targets/discover', key, invalid),
      post(url, '/v1/targets/discover', key, valid),
      post(url, '/v1/targets/discover', key, invalid),
    ]);
    answers.forEach((a, i) => {
      const isValid = i % 2 === 0;
      big.push({ kind: isValid ? 'valid' : 'invalid', mb: isValid ? validMb : invalidMb, status: a.status, ms: a.ms });
      if (isValid && a.status !== 202) throw new Error(`a valid big body answered ${a.status}: ${a.text}`);
      if (!isValid && a.status !== 400) throw new Error(`an invalid big body answered ${a.status}: ${a.text}`);
    });
    // The soak measures the request path: the big jobs themselves (limma on the whole matrix) are cancelled.
    for (const a of answers) {
      const id = /"job_id":"([^"]+)"/.exec(a.text)?.[1];
      if (id) await del(url, `/v1/jobs/${id}`, key);
    }
  }
  inFlight = false;
  await timing;
  const burstSeconds = (performance.now() - t0) / 1000;
  const atEnd = memory(pid);
  await new Promise((r) => setTimeout(r, settleSeconds * 1000));
  const after = memory(pid);
  const base = stats(baseline);
  const busy = stats(during);
  const byKind = (k: string) => stats(big.filter((b) => b.kind === k).map((b) => b.ms));
  console.log(
    JSON.stringify(
      {
        benchmark: `evident-jobs serve (embedded): ${rounds} rounds of 2 x ${validMb} MB valid + 2 x ${invalidMb} MB invalid bodies at once, small submissions timed meanwhile`,
        big_bodies: { valid: byKind('valid'), invalid: byKind('invalid'), burst_s: Math.round(burstSeconds * 10) / 10 },
        small_submission_during_burst: busy,
        small_submission_baseline: base,
        ratio_max_during_to_baseline_max: Math.round((busy.max_ms / base.max_ms) * 100) / 100,
        ratio_p50_during_to_baseline_p50: Math.round((busy.p50_ms / base.p50_ms) * 100) / 100,
        rss_before_mb: before.rss_mb,
        rss_peak_mb: atEnd.peak_mb,
        rss_at_burst_end_mb: atEnd.rss_mb,
        [`rss_${settleSeconds}s_after_mb`]: after.rss_mb,
        goals: { rss_after_mb_under: 300, small_during_50mb_max_ms_under: 1000 },
      },
      null,
      2,
    ),
  );
} catch (e) {
  console.error(`server stderr: ${serverErr.slice(-3000)}`);
  throw e;
} finally {
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  dir.cleanup();
}
