// A hostile-load benchmark of one HTTP server: a baseline of one small request on the quiet server, then each
// hostile case (a request or a burst an attacker on loopback could send) while a prober keeps sending the small
// request, then, after a settling wait, the server's memory and whether it is still alive. Each case reports the
// statuses of its answers, the 5xx, the answers out of shape (an error not in `{ error: { code, message } }`, a
// success whose JSON does not parse, a success where a refusal is due), the requests left unanswered (reset,
// refused or past their deadline) and the slowest probe. The goals of issue #37 are judged on the whole run.
// Requests go through fuzz.ts's sender (node:http, or raw bytes for what a client library cannot send).
import { type FuzzAnswer, type FuzzRequest, sendFuzz } from './fuzz.js';
import { processMemory, type ProcessMemory, type ServerProcess } from './hostile-server.js';
import { hasErrorShape } from './raw-http.js';

/**
 * A hostile request. `mayPass`: a success is a correct answer (a legitimate but heavy request: its body must then
 * be JSON that parses); otherwise only a 4xx is (a success counts out of shape). `timeoutMs`: its deadline.
 */
export type HostileRequest = FuzzRequest & { timeoutMs?: number };

export interface Exchange {
  req: HostileRequest;
  answer: FuzzAnswer;
  /** No answer before the deadline (the request is abandoned, its socket left to the server). */
  timedOut?: boolean;
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Sends one request and gives up on it after `timeoutMs` (status -1, timedOut). */
export async function sendWithin(base: string, req: HostileRequest, timeoutMs: number): Promise<Exchange> {
  const t0 = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<Exchange>((resolve) => {
    timer = setTimeout(
      () =>
        resolve({ req, timedOut: true, answer: { status: -1, contentType: '', text: '', ms: performance.now() - t0 } }),
      req.timeoutMs ?? timeoutMs,
    );
  });
  try {
    return await Promise.race([sendFuzz(base, req).then((answer) => ({ req, answer })), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Whether an answer counts as unanswered: the connection failed, was reset, or the deadline passed. */
export function unanswered(x: Exchange): boolean {
  return x.timedOut === true || (x.answer.status === -1 && !x.req.mayReset);
}

/**
 * What is out of shape in an answer, or undefined: an error status (4xx, 5xx) without `{ error: { code,
 * message } }` as JSON (HEAD answers carry no body), a 2xx whose JSON body does not parse, a 2xx to a request that
 * must be refused. No answer at all is counted apart (unanswered); a 5xx in the error shape only as a 5xx.
 */
export function shapeProblem(x: Exchange): string | undefined {
  const { req, answer: a } = x;
  if (a.status === -1) return undefined;
  const json = /^application\/(.+\+)?json/i.test(a.contentType);
  if (a.status >= 400) {
    if (req.method === 'HEAD') return a.text === '' ? undefined : 'a body on a HEAD answer';
    if (!json) return `${a.status} with content-type ${a.contentType || 'none'}`;
    try {
      return hasErrorShape(JSON.parse(a.text)) ? undefined : `${a.status} not in { error: { code, message } }`;
    } catch {
      return `${a.status} with a body that is not JSON`;
    }
  }
  if (a.status >= 200 && a.status < 300) {
    if (!req.mayPass) return `${a.status} for a request that must be refused`;
    if (json && a.text !== '') {
      try {
        JSON.parse(a.text);
      } catch {
        return `${a.status} with a JSON body that does not parse`;
      }
    }
  }
  return undefined;
}

export interface ProbeSummary {
  probes: number;
  statuses: Record<string, number>;
  five_xx: number;
  out_of_shape: number;
  unanswered: number;
  slowest_ms: number;
  p50_ms: number;
  problems: string[];
}

const percentile = (xs: number[], q: number) => {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};
const round = (ms: number) => Math.round(ms);

function describe(x: Exchange, problem: string): string {
  const r = x.req;
  const sent = r.raw !== undefined ? String(r.raw).slice(0, 60) : `${r.method} ${r.path.slice(0, 80)}`;
  const status = x.timedOut ? 'no answer in time' : x.answer.status;
  return `${r.why}: ${sent} -> ${status} (${problem}) ${x.answer.text.slice(0, 160)}`;
}

/** The statuses, problems and times of a list of exchanges. */
export function summariseExchanges(xs: Exchange[]): ProbeSummary {
  const statuses: Record<string, number> = {};
  const problems: string[] = [];
  let fiveXx = 0;
  let outOfShape = 0;
  let missing = 0;
  for (const x of xs) {
    const key = x.timedOut ? 'timeout' : String(x.answer.status);
    statuses[key] = (statuses[key] ?? 0) + 1;
    if (x.answer.status >= 500) {
      fiveXx++;
      problems.push(describe(x, '5xx'));
    }
    const p = shapeProblem(x);
    if (p) {
      outOfShape++;
      problems.push(describe(x, p));
    }
    if (unanswered(x)) {
      missing++;
      problems.push(describe(x, 'unanswered'));
    }
  }
  const answered = xs.filter((x) => !x.timedOut).map((x) => x.answer.ms);
  const slowest = Math.max(0, ...xs.map((x) => x.answer.ms));
  return {
    probes: xs.length,
    statuses,
    five_xx: fiveXx,
    out_of_shape: outOfShape,
    unanswered: missing,
    slowest_ms: round(slowest),
    p50_ms: round(percentile(answered, 0.5)),
    problems: problems.slice(0, 5),
  };
}

export interface Prober {
  stop(): Promise<ProbeSummary>;
}

/**
 * Sends `probe` one at a time: the next one `intervalMs` after the previous one was sent, or as soon as it is
 * answered when it took longer, so that a stall shows as one slow probe (its length) rather than a pile of
 * connections. stop() waits for the probe in flight.
 */
export function startProber(base: string, probe: HostileRequest, intervalMs: number, timeoutMs: number): Prober {
  const got: Exchange[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const t0 = performance.now();
      got.push(await sendWithin(base, probe, timeoutMs));
      const rest = intervalMs - (performance.now() - t0);
      if (running && rest > 0) await sleep(rest);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return summariseExchanges(got);
    },
  };
}

/** The probe `n` times on the quiet server, one at a time, `intervalMs` apart. */
export async function measureBaseline(
  base: string,
  probe: HostileRequest,
  n: number,
  intervalMs: number,
  timeoutMs: number,
): Promise<ProbeSummary> {
  const got: Exchange[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    got.push(await sendWithin(base, probe, timeoutMs));
    const rest = intervalMs - (performance.now() - t0);
    if (rest > 0) await sleep(rest);
  }
  return summariseExchanges(got);
}

export interface CaseContext {
  /** The server's base URL (it changes when the server is restarted after a crash). */
  url: string;
  server: ServerProcess;
  /** Sends one request within the default deadline. */
  send(req: HostileRequest): Promise<Exchange>;
  /** Sends all of them, `concurrency` at a time (default: all at once). */
  sendAll(reqs: readonly HostileRequest[], concurrency?: number): Promise<Exchange[]>;
  /**
   * Waits the settling time, then reads the server's memory: the case's result shows it as
   * `memory_after_settle`, and the RSS goal holds for it too.
   */
  settle(): Promise<ProcessMemory | undefined>;
}

export interface HostileCase {
  /** What it sends, as the issue names it. */
  name: string;
  /**
   * Sends the hostile request(s) and returns every exchange. `extra`: anything else the case measured, put in its
   * result as is (a job's final status, the RSS read after a settle).
   */
  run(ctx: CaseContext): Promise<{ exchanges: Exchange[]; extra?: Record<string, unknown> }>;
}

export interface CaseResult {
  case: string;
  requests: number;
  /** The hostile answers' statuses ('-1': no answer; 'timeout': past the deadline). */
  statuses: Record<string, number>;
  /** Over hostile answers and probes. */
  five_xx: number;
  out_of_shape: number;
  unanswered: number;
  slowest_probe_ms: number;
  probes: number;
  probe_p50_ms: number;
  /** Error lines the server logged during the case (pino level >= 50). */
  server_error_logs: number;
  seconds: number;
  /** The server was not running at the end of the case (its exit), and was started again for the next. */
  crashed?: string;
  problems?: string[];
  [extra: string]: unknown;
}

export interface Goal {
  value: number | boolean | null;
  limit?: number;
  met: boolean;
}

export interface HostileReport {
  server: string;
  baseline: { probe: string; n: number; slowest_ms: number; p50_ms: number };
  baseline_slowest_ms: number;
  probe_interval_ms: number;
  /** A request not answered by then counts as unanswered. */
  request_deadline_ms: number;
  cases: CaseResult[];
  /** The server's memory on the quiet server, after the baseline (its data loaded): what the cases add to. */
  memory_at_baseline: ProcessMemory | null;
  settle_seconds: number;
  rss_after_60s_mb: number | null;
  memory_after: ProcessMemory | null;
  alive: boolean;
  restarts: number;
  seconds: number;
  goals: {
    no_5xx: Goal;
    none_out_of_shape: Goal;
    none_unanswered: Goal;
    rss_under_300_mb: Goal;
    slowest_probe_under_1000_ms: Goal;
    alive: Goal;
  };
}

export interface HostileBenchOptions {
  /** Starts the server (again, after a crash: the same data). */
  start(): Promise<ServerProcess>;
  /** The small request, for the baseline and the prober. */
  probe: HostileRequest;
  cases: readonly HostileCase[];
  /** Runs once the server is up, before the baseline (data the cases need). */
  prepare?(ctx: CaseContext): Promise<void>;
  baselineN?: number;
  /** Prober spacing; default 50 ms. */
  intervalMs?: number;
  /** The prober: startProber (in this process) by default, or startProcessProber. */
  prober?: (base: string, probe: HostileRequest, intervalMs: number, timeoutMs: number) => Prober | Promise<Prober>;
  /** Deadline of each request unless it names its own; default 150 s. */
  timeoutMs?: number;
  /** Wait before the last memory reading (and a case's settle()); default 60 s. */
  settleMs?: number;
  /** Progress lines (stderr by default). */
  log?: (line: string) => void;
  /** Goal limits; default 300 MB and 1000 ms. */
  rssLimitMb?: number;
  probeLimitMs?: number;
}

/** The bench's goals over its cases: no 5xx, nothing out of shape or unanswered, RSS and slowest probe limits. */
function hostileGoals(
  cases: CaseResult[],
  memory: ProcessMemory | null,
  aliveWithoutRestart: boolean,
  options: HostileBenchOptions,
): HostileReport['goals'] {
  const sum = (k: 'five_xx' | 'out_of_shape' | 'unanswered') => cases.reduce((s, c) => s + c[k], 0);
  const slowest = Math.max(0, ...cases.map((c) => c.slowest_probe_ms));
  // Memory read after a settle inside a case (the job API's fuzz) is held to the same goal.
  const settledRss = cases
    .map((c) => (c.memory_after_settle as ProcessMemory | undefined)?.rss_mb)
    .filter((v): v is number => typeof v === 'number');
  const rss = memory?.rss_mb ?? null;
  const worstRss = rss === null ? null : Math.max(rss, ...settledRss);
  const rssLimit = options.rssLimitMb ?? 300;
  const probeLimit = options.probeLimitMs ?? 1000;
  return {
    no_5xx: { value: sum('five_xx'), met: sum('five_xx') === 0 },
    none_out_of_shape: { value: sum('out_of_shape'), met: sum('out_of_shape') === 0 },
    none_unanswered: { value: sum('unanswered'), met: sum('unanswered') === 0 },
    rss_under_300_mb: { value: worstRss, limit: rssLimit, met: worstRss !== null && worstRss < rssLimit },
    slowest_probe_under_1000_ms: { value: slowest, limit: probeLimit, met: slowest < probeLimit },
    alive: { value: aliveWithoutRestart, met: aliveWithoutRestart },
  };
}

/** Runs the baseline, every case under the prober, the settle and the memory reading; stops the server. */
export async function runHostileBench(options: HostileBenchOptions): Promise<HostileReport> {
  const intervalMs = options.intervalMs ?? 50;
  const timeoutMs = options.timeoutMs ?? 150_000;
  const settleMs = options.settleMs ?? 60_000;
  const log = options.log ?? ((l: string) => process.stderr.write(`${l}\n`));
  const t0 = performance.now();
  let server = await options.start();
  let restarts = 0;
  let settled: ProcessMemory | undefined;
  const context = (): CaseContext => {
    const url = server.url;
    const send = (req: HostileRequest) => sendWithin(url, req, timeoutMs);
    return {
      url,
      server,
      send,
      async sendAll(reqs, concurrency = reqs.length) {
        const out: Exchange[] = [];
        for (let i = 0; i < reqs.length; i += Math.max(1, concurrency)) {
          out.push(...(await Promise.all(reqs.slice(i, i + Math.max(1, concurrency)).map(send))));
        }
        return out;
      },
      async settle() {
        await sleep(settleMs);
        settled = processMemory(server.pid);
        return settled;
      },
    };
  };
  try {
    if (options.prepare) {
      log(`${server.name}: preparing`);
      await options.prepare(context());
    }
    // A few first requests warm the route up; they are not measured.
    await measureBaseline(server.url, options.probe, 5, intervalMs, timeoutMs);
    const baseline = await measureBaseline(server.url, options.probe, options.baselineN ?? 100, intervalMs, timeoutMs);
    const atBaseline = processMemory(server.pid) ?? null;
    log(
      `${server.name}: baseline slowest ${baseline.slowest_ms} ms, p50 ${baseline.p50_ms} ms, RSS ${atBaseline?.rss_mb} MB`,
    );
    const cases: CaseResult[] = [];
    for (const c of options.cases) {
      const started = performance.now();
      const logsBefore = server.errorLogs();
      settled = undefined;
      const prober = await (options.prober ?? startProber)(server.url, options.probe, intervalMs, timeoutMs);
      let run: Awaited<ReturnType<HostileCase['run']>>;
      try {
        run = await c.run(context());
      } catch (e) {
        // A case that cannot be sent (the server gone mid-way) is reported, not fatal to the bench.
        run = { exchanges: [], extra: { case_error: (e as Error).message } };
      }
      const probes = await prober.stop();
      const hostile = summariseExchanges(run.exchanges);
      const result: CaseResult = {
        case: c.name,
        requests: run.exchanges.length,
        statuses: hostile.statuses,
        five_xx: hostile.five_xx + probes.five_xx,
        out_of_shape: hostile.out_of_shape + probes.out_of_shape,
        unanswered: hostile.unanswered + probes.unanswered,
        slowest_probe_ms: probes.slowest_ms,
        probes: probes.probes,
        probe_p50_ms: probes.p50_ms,
        server_error_logs: server.errorLogs() - logsBefore,
        seconds: Math.round((performance.now() - started) / 100) / 10,
        ...(run.extra ?? {}),
        ...(settled ? { memory_after_settle: settled } : {}),
      };
      const problems = [...hostile.problems, ...probes.problems].slice(0, 5);
      if (problems.length) result.problems = problems;
      if (!server.alive()) {
        result.crashed = (await server.exit()) ?? 'exited';
        log(`${server.name}: died during ${c.name} (${result.crashed}): ${server.stderrTail().slice(-600)}`);
        server = await options.start();
        restarts++;
      }
      cases.push(result);
      log(
        `${server.name}: ${c.name}: ${JSON.stringify(result.statuses)}, 5xx ${result.five_xx}, out of shape ` +
          `${result.out_of_shape}, unanswered ${result.unanswered}, slowest probe ${result.slowest_probe_ms} ms`,
      );
    }
    log(`${server.name}: settling ${settleMs / 1000} s`);
    await sleep(settleMs);
    const memory = processMemory(server.pid) ?? null;
    const alive = server.alive() && memory !== null;
    return {
      server: server.name,
      baseline: {
        probe: `${options.probe.method} ${options.probe.path}`,
        n: baseline.probes,
        slowest_ms: baseline.slowest_ms,
        p50_ms: baseline.p50_ms,
      },
      baseline_slowest_ms: baseline.slowest_ms,
      probe_interval_ms: intervalMs,
      request_deadline_ms: timeoutMs,
      cases,
      memory_at_baseline: atBaseline,
      settle_seconds: settleMs / 1000,
      rss_after_60s_mb: memory?.rss_mb ?? null,
      memory_after: memory,
      alive,
      restarts,
      seconds: Math.round((performance.now() - t0) / 1000),
      goals: hostileGoals(cases, memory, alive && restarts === 0, options),
    };
  } finally {
    await server.stop();
  }
}

/** Numbers from the environment: `name` as a number, else `fallback` (benchmarks shrink their cases with these). */
export function envNumber(name: string, fallback: number): number {
  const v = process.env[name];
  return v !== undefined && v !== '' && Number.isFinite(Number(v)) ? Number(v) : fallback;
}
